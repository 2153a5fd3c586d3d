import { EventEmitter } from 'node:events';
import stringWidth from 'string-width';
import type { TerminalOutput } from '../render/index.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what is parsed
const SEQUENCE = /^\x1b\[([0-9;?]*)([A-Za-z])/;

/**
 * A terminal for tests: it applies what is written — text with automatic wrapping at its width, line
 * breaks (as a terminal in cooked mode, `\n` also returns the cursor), `\r`, cursor up (`ESC[nA`),
 * column (`ESC[nG`), erase line (`ESC[2K`) and below (`ESC[J`), colours ignored — and shows the result
 * as lines, scrollback included. The cursor cannot go above the top of the screen (`rows` high), as on a
 * real terminal, so erasing rows that scrolled off fails as it would there.
 */
export class VirtualTerminal extends EventEmitter implements TerminalOutput {
  readonly isTTY = true;
  readonly #lines: string[][] = [[]];
  #row = 0;
  #column = 0;
  /** Set after writing in the last column: the next character wraps first. */
  #pendingWrap = false;

  constructor(
    readonly columns = 40,
    readonly rows = 10,
  ) {
    super();
  }

  write(text: string): boolean {
    let rest = text;
    while (rest !== '') {
      const sequence = rest.startsWith('\x1b') ? SEQUENCE.exec(rest) : null;
      if (sequence) {
        this.#control(sequence[2] as string, sequence[1] as string);
        rest = rest.slice(sequence[0].length);
        continue;
      }
      // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what is parsed
      const next = rest.search(/[\x1b\n\r]/);
      const plain = next === -1 ? rest : next === 0 ? rest[0] : rest.slice(0, next);
      rest = rest.slice((plain as string).length);
      if (plain === '\n') this.#newline();
      else if (plain === '\r') this.#column = 0;
      else if (plain === '\x1b') continue;
      else for (const { segment } of graphemes.segment(plain as string)) this.#put(segment);
    }
    return true;
  }

  /** The lines, scrollback included, with trailing spaces and empty trailing lines removed. */
  get screen(): string {
    return this.#lines
      .map((cells) => cells.join('').replace(/\s+$/, ''))
      .join('\n')
      .replace(/\n+$/, '');
  }

  #put(segment: string): void {
    const cells = Math.max(1, stringWidth(segment));
    if (this.#pendingWrap || this.#column + cells > this.columns) {
      this.#pendingWrap = false;
      this.#newline();
    }
    const line = this.#lines[this.#row] as string[];
    while (line.length < this.#column) line.push(' ');
    line[this.#column] = segment;
    for (let cell = 1; cell < cells; cell++) line[this.#column + cell] = '';
    this.#column += cells;
    if (this.#column >= this.columns) {
      this.#column = this.columns - 1;
      this.#pendingWrap = true;
    }
  }

  #newline(): void {
    this.#pendingWrap = false;
    this.#row++;
    this.#column = 0;
    if (this.#row >= this.#lines.length) this.#lines.push([]);
  }

  #control(command: string, parameter: string): void {
    const count = Number(parameter || '1');
    this.#pendingWrap = false;
    switch (command) {
      case 'A': {
        const top = Math.max(0, this.#lines.length - this.rows);
        this.#row = Math.max(top, this.#row - count);
        break;
      }
      case 'G':
        this.#column = Math.min(this.columns - 1, count - 1);
        break;
      case 'K':
        if (parameter === '2') this.#lines[this.#row] = [];
        else (this.#lines[this.#row] as string[]).length = Math.min(this.#lines[this.#row]?.length ?? 0, this.#column);
        break;
      case 'J':
        (this.#lines[this.#row] as string[]).length = Math.min(this.#lines[this.#row]?.length ?? 0, this.#column);
        this.#lines.length = this.#row + 1;
        break;
      default:
        // Colours and the rest change nothing a test reads.
        break;
    }
  }
}

import type { TerminalOutput } from './terminal.js';
import { splitGraphemes, textWidth } from './text-width.js';

const CLEAR_LINE = '\r\x1b[2K';
const UP_AND_CLEAR = '\x1b[1A\x1b[2K';

/**
 * Text at the end of a terminal's output that may still change — the line the model is writing — drawn
 * so that it can be erased: replaced by its final form, or moved down to put a note above it.
 *
 * To know how many rows it covers, it wraps the text itself, a column short of the terminal's width, so
 * the terminal never wraps on its own; it keeps to the screen's height less one row, showing the end of a
 * longer text, because rows that scrolled off the top cannot be erased. It writes nothing but the text,
 * line breaks and the erasing sequences, so whoever writes next clears it first.
 */
export class LiveText {
  #text = '';
  /** Every row the text takes, wrapped; the screen shows the last of them. */
  #layout: string[] = [];
  /** Cells used in the last row of the layout. */
  #used = 0;
  /** The rows on the screen, as drawn. */
  #drawn: string[] = [];

  constructor(private readonly output: TerminalOutput) {}

  /** What is shown (before wrapping). */
  get text(): string {
    return this.#text;
  }

  /**
   * Shows `text` (lines separated by `\n`). Text that only adds to what is shown is written on; anything
   * else redraws.
   */
  show(text: string): void {
    if (text.startsWith(this.#text) && this.#layout.length > 0) this.#wrap(text.slice(this.#text.length));
    else {
      this.#layout = [];
      this.#used = 0;
      this.#wrap(text);
    }
    this.#text = text;
    const rows = text === '' ? [] : this.#layout.slice(-Math.max(1, (this.output.rows ?? 24) - 1));
    const kept = this.#drawn.length;
    const extendsDrawn =
      kept > 0 &&
      rows.length >= kept &&
      this.#drawn.slice(0, -1).every((row, index) => rows[index] === row) &&
      (rows[kept - 1] as string).startsWith(this.#drawn[kept - 1] as string);
    if (extendsDrawn) {
      const added = (rows[kept - 1] as string).slice((this.#drawn[kept - 1] as string).length);
      const write = `${added}${rows
        .slice(kept)
        .map((row) => `\n${row}`)
        .join('')}`;
      if (write !== '') this.output.write(write);
    } else {
      this.#erase();
      if (rows.length > 0) this.output.write(rows.join('\n'));
    }
    this.#drawn = rows;
  }

  /** Erases what is shown; the cursor is left where it began. */
  clear(): void {
    this.#erase();
    this.#drawn = [];
    this.#layout = [];
    this.#used = 0;
    this.#text = '';
  }

  #erase(): void {
    if (this.#drawn.length === 0) return;
    this.output.write(`${CLEAR_LINE}${UP_AND_CLEAR.repeat(this.#drawn.length - 1)}`);
  }

  // Wraps more text onto the layout, a column short of the width, by grapheme.
  #wrap(text: string): void {
    const width = Math.max(10, (this.output.columns ?? 80) - 1);
    if (this.#layout.length === 0) this.#layout.push('');
    let row = this.#layout.pop() as string;
    for (const { segment } of splitGraphemes(text.replaceAll('\t', '    '))) {
      if (segment === '\n') {
        this.#layout.push(row);
        row = '';
        this.#used = 0;
        continue;
      }
      const cells = cellsOf(segment);
      if (this.#used + cells > width) {
        this.#layout.push(row);
        row = '';
        this.#used = 0;
      }
      row += segment;
      this.#used += cells;
    }
    this.#layout.push(row);
  }
}

// Most text is printable ASCII, one cell a character; string-width measures the rest.
function cellsOf(segment: string): number {
  const code = segment.charCodeAt(0);
  return segment.length === 1 && code >= 0x20 && code < 0x7f ? 1 : textWidth(segment);
}

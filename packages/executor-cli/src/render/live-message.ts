import { LiveText } from './live-text.js';
import type { StreamLines } from './stream-lines.js';
import { plainLines } from './stream-lines.js';
import type { TerminalOutput } from './terminal.js';

/**
 * One message of the model on its way to a terminal. A line is printed for good once it is complete,
 * rendered by `lines` (Markdown, or as it is); until then it stands as a live preview at the end of the
 * output, written as it streams. A note (queued input, a retry) goes above the preview, so it never cuts
 * the line the model is writing.
 */
export class LiveMessage {
  readonly #live: LiveText;
  #partial = '';

  constructor(
    private readonly output: TerminalOutput,
    private readonly lines: StreamLines = plainLines(),
  ) {
    this.#live = new LiveText(output);
  }

  /** Adds streamed text (already stripped of control sequences). */
  push(text: string): void {
    const pieces = text.split('\n');
    const rest = pieces.pop() as string;
    if (pieces.length > 0) {
      const rows: string[] = [];
      for (const piece of pieces) {
        rows.push(...this.lines.line(this.#partial + piece));
        this.#partial = '';
      }
      this.#live.clear();
      this.#print(rows);
    }
    this.#partial += rest;
    this.#live.show(this.lines.preview(this.#partial));
  }

  /** Prints a line above the text still being written. */
  note(line: string): void {
    const shown = this.#live.text;
    this.#live.clear();
    this.output.write(`${line}\n`);
    this.#live.show(shown);
  }

  /** Ends the message: prints what is left, rendered, and leaves the cursor at the start of a line. */
  end(): void {
    this.#live.clear();
    const rows = this.#partial === '' ? [] : this.lines.line(this.#partial);
    this.#partial = '';
    this.#print([...rows, ...this.lines.end()]);
  }

  #print(rows: readonly string[]): void {
    if (rows.length > 0) this.output.write(rows.map((row) => `${row}\n`).join(''));
  }
}

import type { TerminalOutput } from '../render/index.js';

/** A TerminalOutput that keeps what is written, for tests. */
export class MemoryOutput implements TerminalOutput {
  chunks: string[] = [];

  constructor(
    readonly isTTY = false,
    readonly columns = 100,
  ) {}

  write(text: string): boolean {
    this.chunks.push(text);
    return true;
  }

  /** Everything written. */
  get text(): string {
    return this.chunks.join('');
  }

  /** Everything written, with the spinner's line clearing applied the way a terminal would. */
  get screen(): string {
    return this.text
      .split('\n')
      .map((line) => line.split('\r\x1b[2K').at(-1) ?? '')
      .join('\n');
  }
}

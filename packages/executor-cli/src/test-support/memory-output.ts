import { EventEmitter } from 'node:events';
import type { TerminalOutput } from '../render/index.js';

/**
 * A TerminalOutput that keeps what is written, for tests. It is an event emitter, as a stream is, since
 * readline listens to its output (for `resize`).
 */
export class MemoryOutput extends EventEmitter implements TerminalOutput {
  chunks: string[] = [];

  constructor(
    readonly isTTY = false,
    readonly columns = 100,
  ) {
    super();
  }

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

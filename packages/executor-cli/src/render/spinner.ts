import type { Style, TerminalOutput } from './terminal.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const CLEAR_LINE = '\r\x1b[2K';

/** Timers and clock a spinner uses; tests pass fakes. */
export interface SpinnerClock {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  now(): number;
}

const realClock: SpinnerClock = {
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
  now: () => Date.now(),
};

/**
 * A one-line spinner on a timer: `⠹ Running read_file… 3s`. It owns the current line while it spins, so
 * whoever writes to the same output stops it first. Create one only for a terminal.
 */
export class Spinner {
  #text = '';
  #frame = 0;
  #started = 0;
  #handle: unknown;

  constructor(
    private readonly output: TerminalOutput,
    private readonly style: Style,
    private readonly clock: SpinnerClock = realClock,
    private readonly intervalMs = 80,
  ) {}

  /** True while it spins. */
  get active(): boolean {
    return this.#handle !== undefined;
  }

  /** Starts spinning with this text, or changes the text of a running spinner (keeping its timer). */
  start(text: string): void {
    this.#text = text;
    if (this.#handle === undefined) {
      this.#started = this.clock.now();
      this.#frame = 0;
      this.#handle = this.clock.setInterval(() => this.#draw(), this.intervalMs);
    }
    this.#draw();
  }

  /** Writes whole lines above the spinner, which goes on spinning below them. */
  printAbove(text: string): void {
    if (this.#handle === undefined) {
      this.output.write(text);
      return;
    }
    this.output.write(CLEAR_LINE);
    this.output.write(text);
    this.#draw();
  }

  /** Stops and clears its line. Does nothing when it is not spinning. */
  stop(): void {
    if (this.#handle === undefined) return;
    this.clock.clearInterval(this.#handle);
    this.#handle = undefined;
    this.output.write(CLEAR_LINE);
  }

  #draw(): void {
    const seconds = Math.floor((this.clock.now() - this.#started) / 1000);
    const elapsed = seconds > 0 ? this.style.dim(` ${seconds}s`) : '';
    const width = (this.output.columns ?? 80) - 8;
    const text = this.#text.length > width ? `${this.#text.slice(0, width - 1)}…` : this.#text;
    const frame = FRAMES[this.#frame++ % FRAMES.length] as string;
    this.output.write(`${CLEAR_LINE}${this.style.cyan(frame)} ${text}${elapsed}`);
  }
}

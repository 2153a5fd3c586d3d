/** How much of a server's stderr is kept for reports: the last few lines say why it failed. */
const DEFAULT_MAX_CHARS = 4_000;

/**
 * The last part of what a server wrote to stderr, for the message that reports its failure. Keeps at most
 * `maxChars` characters, cut at a line start where it can be, so a chatty server cannot grow it.
 */
export class StderrTail {
  readonly #maxChars: number;
  #text = '';

  constructor(maxChars = DEFAULT_MAX_CHARS) {
    this.#maxChars = maxChars;
  }

  /** Adds what the server wrote. */
  append(chunk: string): void {
    this.#text += chunk;
    if (this.#text.length > this.#maxChars * 2) this.#trim();
  }

  /** The kept text, trimmed; empty when the server wrote nothing. */
  text(): string {
    this.#trim();
    return this.#text.trim();
  }

  /** Forgets what was kept (a restarted server starts a new tail). */
  clear(): void {
    this.#text = '';
  }

  #trim(): void {
    if (this.#text.length <= this.#maxChars) return;
    const cut = this.#text.slice(-this.#maxChars);
    const lineStart = cut.indexOf('\n');
    this.#text = lineStart >= 0 && lineStart < cut.length - 1 ? cut.slice(lineStart + 1) : cut;
  }
}

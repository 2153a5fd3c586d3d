import { stripVTControlCharacters } from 'node:util';

/**
 * A command's output, capped: the first half of `maxBytes` and the last half are kept, and what lies
 * between is counted and dropped, so endless output costs a fixed amount of memory and the model sees how
 * the command started and how it ended (where errors and summaries are). Bytes are kept in arrival order,
 * stdout and stderr together, as a terminal would show them.
 */
export class CappedOutput {
  readonly #headMax: number;
  readonly #tailMax: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #totalBytes = 0;

  constructor(maxBytes: number) {
    this.#headMax = Math.floor(maxBytes / 2);
    this.#tailMax = maxBytes - this.#headMax;
  }

  /** Every byte written, kept or not. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Takes a chunk of output. */
  push(chunk: Buffer): void {
    this.#totalBytes += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headMax) {
      const taken = rest.subarray(0, this.#headMax - this.#headBytes);
      this.#head.push(taken);
      this.#headBytes += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    // Drop whole chunks from the front while what is left still fills the tail.
    while (this.#tail.length > 1 && this.#tailBytes - (this.#tail[0] as Buffer).length >= this.#tailMax) {
      this.#tailBytes -= (this.#tail.shift() as Buffer).length;
    }
  }

  /**
   * The output as text for a model: terminal escapes removed, a line rewritten with `\r` (a progress
   * bar) shown as it ended, and a note where the middle was cut.
   */
  text(): string {
    const head = Buffer.concat(this.#head);
    const tail = Buffer.concat(this.#tail);
    const kept = tail.subarray(Math.max(0, tail.length - this.#tailMax));
    const cut = this.#totalBytes - head.length - kept.length;
    if (cut <= 0) return readable(Buffer.concat([head, kept]).toString('utf8'));
    return `${readable(head.toString('utf8'))}\n[... ${cut} bytes of output cut here ...]\n${readable(fromCharacterStart(kept).toString('utf8'))}`;
  }
}

// A tail cut in the middle of a UTF-8 character starts at the next character.
function fromCharacterStart(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length && start < 4 && ((bytes[start] as number) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start);
}

function readable(text: string): string {
  return stripVTControlCharacters(text)
    .split('\n')
    .map((line) => {
      const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
      const last = bare.lastIndexOf('\r');
      return last === -1 ? bare : bare.slice(last + 1);
    })
    .join('\n');
}

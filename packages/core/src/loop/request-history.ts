import type { Message } from '@agentloop/spec';

/**
 * The history a run's requests send: the memory's messages without its system messages (the system prompt
 * carries those). Filtering the whole memory before every request made each iteration cost more than the
 * one before (at 3,000 iterations, 6,000 messages, most of the loop's time); this keeps the filtered list
 * and reads only the messages the memory appended since the last request.
 *
 * It trusts the Memory contract (appended messages never change; a rewrite replaces them) only as far as
 * it can check cheaply: it reads on from where it stopped when the memory hands out the same array as last
 * time, with the same first message and the same message where reading stopped (what `ConversationMemory`
 * does while the conversation only grows; its clear and restore make a new array). Anything else is read
 * again from the start, and so is the memory after a compaction (`reset`) and at each run's start (the
 * view is made per run), whatever the memory did in between.
 */
export class RequestHistory {
  /** The non-system messages read so far, in order; never handed out. */
  #messages: Message[] = [];
  /** The array `#messages` was read from, how many of its messages were read, and its first and last of them. */
  #source: readonly Message[] | undefined;
  #read = 0;
  #first: Message | undefined;
  #lastRead: Message | undefined;

  /**
   * The history to send, as `memory` holds it now: a new array on every call, which the request owns, so a
   * provider that changes it (or keeps it, as a recording does) changes nothing here or in the memory.
   * Copying an array of references costs about a nanosecond a message, far less than any provider spends
   * serialising the same messages; a shared frozen array would have to be copied on the next append anyway.
   */
  read(memory: readonly Message[]): Message[] {
    if (!this.#onlyGrew(memory)) this.reset();
    const messages = this.#messages;
    for (let index = this.#read; index < memory.length; index++) {
      const message = memory[index] as Message;
      if (message.role !== 'system') messages.push(message);
    }
    this.#source = memory;
    this.#read = memory.length;
    this.#first = memory[0];
    this.#lastRead = memory[memory.length - 1];
    return messages.slice();
  }

  /** Forgets what was read: the next `read` starts from the memory's first message. */
  reset(): void {
    this.#messages = [];
    this.#source = undefined;
    this.#read = 0;
    this.#first = undefined;
    this.#lastRead = undefined;
  }

  #onlyGrew(memory: readonly Message[]): boolean {
    const read = this.#read;
    return (
      memory === this.#source &&
      memory.length >= read &&
      (read === 0 || (memory[0] === this.#first && memory[read - 1] === this.#lastRead))
    );
  }
}

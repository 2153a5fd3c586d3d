import { randomId } from '../agent/random-id.js';
import type { AwaitAnswerOptions, Journal } from './journal.js';

/** Options of a DirectJournal. */
export interface DirectJournalOptions {
  /** The clock, in milliseconds. Default: `performance.now`. */
  now?: () => number;
  /** Makes ids. Default: `crypto.randomUUID`. */
  createId?: () => string;
}

/**
 * The default Journal: runs every effect directly and records nothing, so a run is what it always was.
 * Answers are in-process promises, settled by `answer` (what `agent.answerApproval` calls).
 */
export class DirectJournal implements Journal {
  /** The clock, read directly. */
  readonly clock: () => number;
  readonly randomId: () => string;
  readonly #waiting = new Map<string, (value: unknown) => void>();

  constructor(options: DirectJournalOptions = {}) {
    this.clock = options.now ?? (() => performance.now());
    this.randomId = options.createId ?? randomId;
  }

  now(): Promise<number> {
    return Promise.resolve(this.clock());
  }

  step<T>(_name: string, run: () => Promise<T>): Promise<T> {
    return run();
  }

  awaitAnswer<T>(requestId: string, onRequest: () => void, options: AwaitAnswerOptions = {}): Promise<T> {
    const { signal } = options;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.delete(requestId);
        reject(signal?.reason);
      };
      this.#waiting.set(requestId, (value) => {
        this.#waiting.delete(requestId);
        signal?.removeEventListener('abort', onAbort);
        resolve(value as T);
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      onRequest();
      if (signal?.aborted) onAbort();
    });
  }

  answer(requestId: string, value: unknown): boolean {
    const settle = this.#waiting.get(requestId);
    if (!settle) return false;
    settle(value);
    return true;
  }
}

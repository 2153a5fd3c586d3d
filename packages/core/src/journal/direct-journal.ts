import { randomId } from '../agent/random-id.js';
import type { AwaitAnswerOptions, Journal } from './journal.js';
import { PendingAnswers } from './pending-answers.js';

/** Options of a DirectJournal. */
export interface DirectJournalOptions {
  /** The clock, in milliseconds. Default: `performance.now`. */
  now?: () => number;
  /** Makes ids. Default: `crypto.randomUUID`. */
  createId?: () => string;
}

/**
 * The default Journal: runs every effect directly and records nothing, so a run is what it always was.
 * Answers are in-process promises, settled by `answer` (what `agent.answerApproval` calls). Knowing that,
 * the loop runs its effects without calling `step` at all, so a subclass that changes `step` changes
 * nothing: implement `Journal` instead.
 */
export class DirectJournal implements Journal {
  /** The clock, read directly. */
  readonly clock: () => number;
  readonly randomId: () => string;
  readonly #pending = new PendingAnswers();

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
    return this.#pending.wait<T>(requestId, onRequest, options);
  }

  answer(requestId: string, value: unknown): boolean {
    return this.#pending.answer(requestId, value);
  }
}

import { randomUUID } from 'node:crypto';
import type { AwaitAnswerOptions, Journal } from '../journal/journal.js';
import { PendingAnswers } from '../journal/pending-answers.js';

/** One entry of a MemoryJournal: a step's result, a clock reading, an id, or an answer, as JSON. */
export type JournalRecord =
  | { readonly kind: 'step'; readonly name: string; readonly value: unknown }
  | { readonly kind: 'now'; readonly value: number }
  | { readonly kind: 'id'; readonly value: string }
  | { readonly kind: 'answer'; readonly name: string; readonly value: unknown };

/** Options of a MemoryJournal. */
export interface MemoryJournalOptions {
  /**
   * The records to replay (`records` of an earlier journal, or the first of them): a step or answer found
   * here by name resolves with its recorded value without running; clock readings and ids are taken in
   * order. What is not found runs live and is recorded after them.
   */
  records?: readonly JournalRecord[];
  /** The clock for live readings. Default: `Date.now`. */
  now?: () => number;
  /** Makes live ids. Default: `crypto.randomUUID`. */
  createId?: () => string;
  /** Says the journal replays by order (`Journal.replaysInOrder`), as Restate's does. Default false. */
  replaysInOrder?: boolean;
}

/**
 * A Journal that records in memory, for tests of durable runs: a run made with it leaves its `records`,
 * and a MemoryJournal made from them replays the run as a durable engine would on another worker, without
 * calling the model or any tool again. Values are kept as JSON, as a durable engine keeps them, so a
 * replay sees what a JSON round trip leaves of them. Answers (`awaitAnswer`) are in-process promises
 * settled by `answer`, recorded once given; a replayed answer resolves at once, without `onRequest`.
 */
export class MemoryJournal implements Journal {
  readonly #records: JournalRecord[] = [];
  readonly #steps = new Map<string, unknown>();
  readonly #answers = new Map<string, unknown>();
  readonly #clock: number[] = [];
  readonly #ids: string[] = [];
  readonly #now: () => number;
  readonly #createId: () => string;
  readonly #pending = new PendingAnswers();
  readonly replaysInOrder: boolean;
  /** It records and replays, as a durable engine does (`Journal.durable`). */
  readonly durable = true;
  /** The names of the steps that ran live, in the order they started. */
  readonly ran: string[] = [];
  /** The names of the steps and answers taken from the records, in order. */
  readonly replayed: string[] = [];

  constructor(options: MemoryJournalOptions = {}) {
    for (const record of options.records ?? []) {
      this.#records.push(record);
      if (record.kind === 'step') this.#steps.set(record.name, record.value);
      else if (record.kind === 'answer') this.#answers.set(record.name, record.value);
      else if (record.kind === 'now') this.#clock.push(record.value);
      else this.#ids.push(record.value);
    }
    this.#now = options.now ?? Date.now;
    this.#createId = options.createId ?? randomUUID;
    this.replaysInOrder = options.replaysInOrder ?? false;
  }

  /** Every entry: the replayed ones, then those made live, in the order they were made. */
  get records(): readonly JournalRecord[] {
    return [...this.#records];
  }

  /**
   * The records up to and including the `count`-th step (with the clock readings, ids and answers before
   * it): a journal cut there, as a worker that died after that step left it.
   */
  recordsThroughStep(count: number): JournalRecord[] {
    const cut: JournalRecord[] = [];
    let steps = 0;
    for (const record of this.#records) {
      if (record.kind === 'step') {
        if (steps === count) break;
        steps++;
      }
      cut.push(record);
    }
    return cut;
  }

  async step<T>(name: string, run: () => Promise<T>): Promise<T> {
    if (this.#steps.has(name)) {
      this.replayed.push(name);
      return copy(this.#steps.get(name)) as T;
    }
    this.ran.push(name);
    const value = await run();
    this.#steps.set(name, copy(value));
    this.#records.push({ kind: 'step', name, value: copy(value) });
    return value;
  }

  now(): Promise<number> {
    const replayed = this.#clock.shift();
    if (replayed !== undefined) return Promise.resolve(replayed);
    const value = this.#now();
    this.#records.push({ kind: 'now', value });
    return Promise.resolve(value);
  }

  randomId(): string {
    const replayed = this.#ids.shift();
    if (replayed !== undefined) return replayed;
    const value = this.#createId();
    this.#records.push({ kind: 'id', value });
    return value;
  }

  awaitAnswer<T>(requestId: string, onRequest: () => void, options: AwaitAnswerOptions = {}): Promise<T> {
    if (this.#answers.has(requestId)) {
      this.replayed.push(requestId);
      return Promise.resolve(copy(this.#answers.get(requestId)) as T);
    }
    return this.#pending.wait<T>(requestId, onRequest, {
      ...options,
      onAnswer: (value) => {
        this.#answers.set(requestId, copy(value));
        this.#records.push({ kind: 'answer', name: requestId, value: copy(value) });
      },
    });
  }

  answer(requestId: string, value: unknown): boolean {
    return this.#pending.answer(requestId, value);
  }
}

/** The value after a JSON round trip, as a durable engine stores it; `undefined` stays undefined. */
function copy(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

import type { AwaitAnswerOptions, Journal } from '@agentloop/core';
import { type ObjectContext, type RunOptions, TerminalError } from '@restatedev/restate-sdk';

/** How often a step whose effect rejected is tried, and how long apart, before the run gives up on it. */
export interface StepRetryPolicy {
  /** Attempts in all, the first included. Default 3. */
  maxAttempts?: number;
  /** The wait before the first retry, in milliseconds; it doubles with each. Default 1,000. */
  initialIntervalMs?: number;
}

/** What a durable run learns from its journal. */
export interface RestateJournalHooks {
  /** A wait for an answer was set up: its awakeable's id, for `answer` to resolve. */
  onWait?(requestId: string, awakeableId: string): void;
  /** The wait for `requestId` ended: answered, cancelled or aborted. */
  onWaitEnd?(requestId: string, answer: unknown): void;
  /** Restate cancelled the invocation (the `cancel` handler, or `restate invocations cancel`). */
  onCancelled?(): void;
  /** Runs inside each step after its effect, before its result is recorded (delivers the step's events). */
  beforeRecord?(): Promise<void>;
}

/** What a step records: the effect's result and the time it ended, which `now()` reads afterwards. */
interface RecordedStep<T> {
  value: T;
  at: number;
}

/**
 * The Journal of one Restate invocation: each step is a `ctx.run`, so its result is recorded in
 * Restate's journal and handed back on replay without running it again; ids are Restate's deterministic
 * random UUIDs; answers are awakeables, which the `answer` handler (or anyone holding the id, through
 * Restate's API) resolves, on any worker, while the run is suspended.
 *
 * The clock is the time the last recorded step ended (the run's start before any): the loop reads it
 * synchronously, and a replay must read what the first execution read, so it cannot be the wall clock.
 *
 * A step whose effect rejects is retried by Restate a few times (`StepRetryPolicy`), then fails with a
 * TerminalError the loop ends the run with: the loop records a provider's or a tool's final failures as
 * values, so a rejection here is unexpected, and retrying it forever would only hide it.
 */
export class RestateJournal implements Journal {
  readonly #context: ObjectContext;
  readonly #hooks: RestateJournalHooks;
  readonly #runOptions: RunOptions<RecordedStep<unknown>>;
  readonly #awakeables = new Map<string, string>();
  #clock: number;

  constructor(
    context: ObjectContext,
    options: { startedAt: number; retry?: StepRetryPolicy; hooks?: RestateJournalHooks },
  ) {
    this.#context = context;
    this.#clock = options.startedAt;
    this.#hooks = options.hooks ?? {};
    this.#runOptions = {
      maxRetryAttempts: options.retry?.maxAttempts ?? 3,
      initialRetryInterval: options.retry?.initialIntervalMs ?? 1_000,
      retryIntervalFactor: 2,
    };
  }

  async step<T>(name: string, run: () => Promise<T>): Promise<T> {
    const recorded = (await this.#cancellable(
      this.#context.run(
        name,
        async (): Promise<RecordedStep<T>> => {
          const value = await run();
          await this.#hooks.beforeRecord?.();
          return { value, at: Date.now() };
        },
        this.#runOptions as RunOptions<RecordedStep<T>>,
      ),
    )) as RecordedStep<T>;
    // Steps that ran at once may be replayed in another order: the clock never goes back.
    this.#clock = Math.max(this.#clock, recorded.at);
    return recorded.value;
  }

  now(): number {
    return this.#clock;
  }

  randomId(): string {
    return this.#context.rand.uuidv4();
  }

  async awaitAnswer<T>(requestId: string, onRequest: () => void, options: AwaitAnswerOptions = {}): Promise<T> {
    const { signal } = options;
    const awakeable = this.#context.awakeable<T>();
    this.#awakeables.set(requestId, awakeable.id);
    this.#hooks.onWait?.(requestId, awakeable.id);
    let answer: unknown;
    try {
      onRequest();
      answer = await this.#cancellable(abortable(awakeable.promise, signal));
      return answer as T;
    } finally {
      this.#awakeables.delete(requestId);
      this.#hooks.onWaitEnd?.(requestId, answer);
    }
  }

  answer(requestId: string, value: unknown): boolean {
    const awakeableId = this.#awakeables.get(requestId);
    if (awakeableId === undefined) return false;
    this.#context.resolveAwakeable(awakeableId, value);
    return true;
  }

  /** Tells the run of Restate's cancel before the loop sees the error, so the run ends `cancelled`. */
  async #cancellable<T>(promise: Promise<T>): Promise<T> {
    try {
      return await promise;
    } catch (error) {
      if (isCancellation(error)) this.#hooks.onCancelled?.();
      throw error;
    }
  }
}

/** The promise, or the signal's reason when it aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Restate's cancel: a TerminalError with code 409 (a CancelledError, or the same read back from the journal). */
export function isCancellation(error: unknown): boolean {
  return error instanceof TerminalError && error.code === 409;
}

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
  onWaitEnd?(requestId: string): void;
  /**
   * Restate cancelled the invocation (the `cancel` handler, or `restate invocations cancel`): the run
   * must abort its signal, so that the loop ends it with `cancelled`.
   */
  onCancelled?(): void;
  /** Runs inside each step after its effect, before its result is recorded (delivers the step's events). */
  beforeRecord?(): Promise<void>;
}

/** Options of a RestateJournal. */
export interface RestateJournalOptions {
  /** How a step whose effect rejected is retried before the run gives up. */
  retry?: StepRetryPolicy;
  hooks?: RestateJournalHooks;
}

/**
 * The Journal of one Restate invocation: each step is a `ctx.run`, so its result is recorded in
 * Restate's journal and handed back on replay without running it again; the clock is Restate's
 * (`ctx.date.now()`), ids its deterministic random UUIDs; answers are awakeables, which the `answer`
 * handler (or anyone holding the id, through Restate's API) resolves on any worker while the run is
 * suspended.
 *
 * A step whose effect rejects is retried by Restate a few times (`StepRetryPolicy`), then fails with a
 * TerminalError: the loop records a provider's or a tool's final failures as values, so a rejection here
 * is unexpected, and retrying it forever would only hide it.
 *
 * Restate's cancel reaches the run as a rejection of what it awaits. The journal aborts the run's signal
 * first (`onCancelled`); a step it cut off runs again under its own name with the signal aborted, which
 * the loop records as a cancelled call and ends the run with `cancelled`, as an in-process cancel does.
 */
export class RestateJournal implements Journal {
  /** Each step is a `ctx.run`, which allows no wait for the user inside it (`Journal.durable`). */
  readonly durable = true;
  /**
   * Restate matches a replay's `ctx.run`s and awakeables to its journal by the order they are made, so the
   * loop must make them in one order whatever the timing (`Journal.replaysInOrder`).
   */
  readonly replaysInOrder = true;
  readonly #context: ObjectContext;
  readonly #hooks: RestateJournalHooks;
  readonly #runOptions: RunOptions<unknown>;
  readonly #awakeables = new Map<string, string>();

  constructor(context: ObjectContext, options: RestateJournalOptions = {}) {
    this.#context = context;
    this.#hooks = options.hooks ?? {};
    this.#runOptions = {
      maxRetryAttempts: options.retry?.maxAttempts ?? 3,
      initialRetryInterval: options.retry?.initialIntervalMs ?? 1_000,
      retryIntervalFactor: 2,
    };
  }

  async step<T>(name: string, run: () => Promise<T>): Promise<T> {
    try {
      return await this.#record(name, run);
    } catch (error) {
      if (!isCancellation(error)) throw error;
      this.#hooks.onCancelled?.();
      return this.#record(`${name}:cancelled`, run);
    }
  }

  now(): Promise<number> {
    return this.#context.date.now();
  }

  randomId(): string {
    return this.#context.rand.uuidv4();
  }

  async awaitAnswer<T>(requestId: string, onRequest: () => void, options: AwaitAnswerOptions = {}): Promise<T> {
    const { signal } = options;
    const awakeable = this.#context.awakeable<T>();
    this.#awakeables.set(requestId, awakeable.id);
    this.#hooks.onWait?.(requestId, awakeable.id);
    try {
      onRequest();
      return await abortable(awakeable.promise, signal);
    } catch (error) {
      if (isCancellation(error)) this.#hooks.onCancelled?.();
      throw error;
    } finally {
      this.#awakeables.delete(requestId);
      this.#hooks.onWaitEnd?.(requestId);
    }
  }

  answer(requestId: string, value: unknown): boolean {
    const awakeableId = this.#awakeables.get(requestId);
    if (awakeableId === undefined) return false;
    this.#context.resolveAwakeable(awakeableId, value);
    return true;
  }

  #record<T>(name: string, run: () => Promise<T>): Promise<T> {
    return this.#context.run(
      name,
      async () => {
        const value = await run();
        await this.#hooks.beforeRecord?.();
        return value;
      },
      this.#runOptions as RunOptions<T>,
    );
  }
}

/** Restate's cancel: a TerminalError with code 409 (a CancelledError, or the same read back from the journal). */
export function isCancellation(error: unknown): boolean {
  return error instanceof TerminalError && error.code === 409;
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

import type { ModelChunk } from '@agentloop/spec';
import { AgentloopError, CancelledError } from '@agentloop/spec';
import { type RetryPolicy, resolveRetryPolicy, retryDelayMs } from './retry-policy.js';
import { sleep as realSleep, type Sleep } from './sleep.js';

/** Options of streamWithRetry. */
export interface StreamWithRetryOptions {
  /** The request's signal: an abort ends the stream with a CancelledError and is never retried. */
  signal: AbortSignal;
  /** Overrides of the default retry policy. */
  policy?: Partial<RetryPolicy>;
  /** Waits between attempts; inject a fake in tests. */
  sleep?: Sleep;
  /** Source of jitter in [0, 1); inject a constant in tests. */
  random?: () => number;
}

/**
 * One model call as a single stream of chunk batches, retried as a whole. `startAttempt(attempt)` (0 for
 * the first) starts a fresh request and streams its chunks in batches. When it throws a retryable
 * AgentloopError, a batch of one `retry` chunk is yielded — with `discardOutput: true` when that attempt
 * had already yielded chunks, which the consumer must then drop — and after the delay the next attempt
 * streams the step again from its start.
 *
 * Throws (never retries) on a non-retryable error, on a spent budget (the last error), and on an abort of
 * `signal` (a CancelledError, also when the abort happens during the wait).
 */
export function streamWithRetry(
  startAttempt: (attempt: number) => AsyncIterable<readonly ModelChunk[]>,
  options: StreamWithRetryOptions,
): AsyncIterable<readonly ModelChunk[]> {
  return { [Symbol.asyncIterator]: () => new RetryingStream(startAttempt, options) };
}

/**
 * The iterator of streamWithRetry. Every batch of a model call passes here, so the batches of an attempt are
 * handed on with one `then` each rather than through a generator; only a failure takes the slow path.
 */
class RetryingStream implements AsyncIterator<readonly ModelChunk[]> {
  private readonly signal: AbortSignal;
  private readonly policy: RetryPolicy;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private attempt = 0;
  private current: AsyncIterator<readonly ModelChunk[]> | undefined;
  /** Whether the current attempt yielded a chunk: its output must then be discarded on a retry. */
  private yielded = false;
  /** A retry announced: the next read waits, then starts the next attempt. */
  private pendingDelayMs: number | undefined;
  private done = false;

  constructor(
    private readonly startAttempt: (attempt: number) => AsyncIterable<readonly ModelChunk[]>,
    options: StreamWithRetryOptions,
  ) {
    this.signal = options.signal;
    this.policy = resolveRetryPolicy(options.policy);
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
  }

  next(): Promise<IteratorResult<readonly ModelChunk[]>> {
    if (this.done) return Promise.resolve({ done: true, value: undefined });
    // The common case: the next chunk of a running attempt.
    if (this.current && this.pendingDelayMs === undefined) return this.current.next().then(this.onResult, this.onError);
    return this.startNext();
  }

  private async startNext(): Promise<IteratorResult<readonly ModelChunk[]>> {
    try {
      if (this.pendingDelayMs !== undefined) {
        const delayMs = this.pendingDelayMs;
        this.pendingDelayMs = undefined;
        await this.sleep(delayMs, this.signal);
      }
      throwIfAborted(this.signal);
      this.yielded = false;
      this.current = this.startAttempt(this.attempt)[Symbol.asyncIterator]();
    } catch (thrown) {
      return this.onError(thrown);
    }
    return this.current.next().then(this.onResult, this.onError);
  }

  private readonly onResult = (
    result: IteratorResult<readonly ModelChunk[]>,
  ): IteratorResult<readonly ModelChunk[]> => {
    if (result.done) this.done = true;
    else this.yielded = true;
    return result;
  };

  private readonly onError = (thrown: unknown): IteratorResult<readonly ModelChunk[]> => this.fail(thrown);

  async return(): Promise<IteratorResult<readonly ModelChunk[]>> {
    if (!this.done) {
      this.done = true;
      await this.current?.return?.();
    }
    return { done: true, value: undefined };
  }

  /** A failed attempt (or wait): a `retry` chunk when the policy allows another attempt, else the error. */
  private fail(thrown: unknown): IteratorResult<readonly ModelChunk[]> {
    this.current = undefined;
    try {
      throwIfAborted(this.signal, thrown);
      const error = AgentloopError.from(thrown);
      const delayMs = retryDelayMs(this.policy, this.attempt + 1, error, this.random);
      if (delayMs === undefined) throw error;
      this.attempt++;
      this.pendingDelayMs = delayMs;
      return {
        done: false,
        value: [{ type: 'retry', attempt: this.attempt, delayMs, error, discardOutput: this.yielded }],
      };
    } catch (error) {
      this.done = true;
      throw error;
    }
  }
}

function throwIfAborted(signal: AbortSignal, cause?: unknown): void {
  if (!signal.aborted) return;
  if (CancelledError.isInstance(cause) && cause.code === 'cancelled') throw cause;
  throw new CancelledError(undefined, signal.reason ?? cause);
}

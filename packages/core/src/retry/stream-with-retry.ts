import { AgentloopError } from '@agentloop/tools';
import { CancelledError } from '../errors/index.js';
import type { ModelChunk } from '../provider/index.js';
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
 * One model call as a single stream, retried as a whole. `startAttempt(attempt)` (0 for the first) starts
 * a fresh request and streams its chunks. When it throws a retryable AgentloopError, a `retry` chunk is
 * yielded — with `discardOutput: true` when that attempt had already yielded chunks, which the consumer
 * must then drop — and after the delay the next attempt streams the step again from its start.
 *
 * Throws (never retries) on a non-retryable error, on a spent budget (the last error), and on an abort of
 * `signal` (a CancelledError, also when the abort happens during the wait).
 */
export async function* streamWithRetry(
  startAttempt: (attempt: number) => AsyncIterable<ModelChunk>,
  options: StreamWithRetryOptions,
): AsyncGenerator<ModelChunk, void, undefined> {
  const { signal } = options;
  const policy = resolveRetryPolicy(options.policy);
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  for (let attempt = 0; ; attempt++) {
    throwIfAborted(signal);
    let yielded = false;
    try {
      for await (const chunk of startAttempt(attempt)) {
        yielded = true;
        yield chunk;
      }
      return;
    } catch (thrown) {
      throwIfAborted(signal, thrown);
      const error = AgentloopError.from(thrown);
      const delayMs = retryDelayMs(policy, attempt + 1, error, random);
      if (delayMs === undefined) throw error;
      yield { type: 'retry', attempt: attempt + 1, delayMs, error, discardOutput: yielded };
      await sleep(delayMs, signal);
    }
  }
}

function throwIfAborted(signal: AbortSignal, cause?: unknown): void {
  if (!signal.aborted) return;
  if (CancelledError.isInstance(cause) && cause.code === 'cancelled') throw cause;
  throw new CancelledError(undefined, signal.reason ?? cause);
}

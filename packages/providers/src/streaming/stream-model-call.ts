import { type RetryPolicy, type Sleep, streamWithRetry, withIdleTimeout } from '@agentloop/provider-utils';
import { AgentloopError, CancelledError, type ModelChunk, type ModelRequest, ProviderError } from '@agentloop/spec';

/** How a provider calls its model: the retry and timeout settings every adapter shares. */
export interface ModelCallSettings {
  /** Overrides of the default retry policy (4 retries, exponential backoff with full jitter). */
  retry?: Partial<RetryPolicy>;
  /** The longest silence of a stream, in milliseconds, before it counts as broken (0 disables). */
  idleTimeoutMs: number;
  /** Waits between retries; inject a fake in tests. */
  sleep?: Sleep;
  /** Source of retry jitter in [0, 1). */
  random?: () => number;
}

/** What an adapter's attempt gets to work with. */
export interface AttemptControls {
  /** The attempt's signal: aborted by the request's, by the idle timeout, or when the stream is stopped early. */
  signal: AbortSignal;
  /** Marks activity that yields no chunk (tool-argument pieces, pings), for the idle timeout. */
  touch: () => void;
  /**
   * Says the answer is complete while the rest of the body is still being read in the background (see
   * untilComplete's `onRelease`): stopping the stream from then on must not cut the request, whose
   * connection is going back to the pool.
   */
  released: () => void;
}

/** One model call of an adapter. */
export interface ModelCall extends ModelCallSettings {
  /** The provider's id, for error messages. */
  provider: string;
  /** The request; its signal cancels the call. */
  request: ModelRequest;
  /** Sends the request once, with the controls' signal, and streams its chunks; it must end with a `finish` chunk or throw. */
  attempt: (controls: AttemptControls) => AsyncIterable<ModelChunk>;
  /** Turns what an attempt threw (SDK errors, parse errors) into an AgentloopError. */
  toError: (error: unknown) => AgentloopError;
}

/**
 * Runs a model call with the one retry layer of the project: each attempt is watched by the idle
 * timeout, failures become ProviderErrors, retryable ones start the step again (announced by `retry`
 * chunks), and an abort of the request's signal ends the call with a CancelledError.
 */
export function streamModelCall(call: ModelCall): AsyncIterable<ModelChunk> {
  return streamWithRetry(() => runAttempt(call), {
    signal: call.request.signal,
    policy: call.retry,
    sleep: call.sleep,
    random: call.random,
  });
}

/**
 * One attempt: the adapter's stream under the idle timeout, with its failures turned into AgentloopErrors.
 * An iterator rather than a generator: every chunk passes here (one `then` each).
 */
function runAttempt(call: ModelCall): AsyncIterable<ModelChunk> {
  const requestSignal = call.request.signal;
  // The attempt has a signal of its own, aborted by the request's, by the idle timeout, or by a consumer
  // that stops reading before the answer is complete. It is also what the SDK listens to: the OpenAI SDK
  // never removes its listener from the signal it is given, which must therefore not be the run's.
  const attempt = new AbortController();
  const forwardAbort = (): void => attempt.abort(requestSignal.reason);
  requestSignal.addEventListener('abort', forwardAbort, { once: true });
  /** Whether the answer is complete (or failed): from then on the request must not be aborted. */
  let settled = false;
  const settle = (): void => {
    settled = true;
    requestSignal.removeEventListener('abort', forwardAbort);
  };
  let touch = (): void => {};
  let source: AsyncIterable<ModelChunk>;
  try {
    source = call.attempt({ signal: attempt.signal, touch: () => touch(), released: settle });
  } catch (error) {
    settle();
    source = failing(error);
  }
  const chunks = withIdleTimeout(source, {
    idleTimeoutMs: call.idleTimeoutMs,
    keepAlive: (keepAlive) => {
      touch = keepAlive;
    },
    onTimeout: () => attempt.abort(),
    createError: (ms) =>
      new ProviderError(`${call.provider}: the stream sent nothing for ${ms} ms`, {
        code: 'timeout',
        provider: call.provider,
      }),
  });
  const iterator = chunks[Symbol.asyncIterator]();
  const onResult = (result: IteratorResult<ModelChunk>): IteratorResult<ModelChunk> => {
    if (result.done || result.value.type === 'finish') settle();
    return result;
  };
  const onError = (error: unknown): never => {
    settle();
    // The SDKs end a stream quietly when its signal aborts; whatever broke after a cancel is the cancel.
    if (requestSignal.aborted) throw new CancelledError(undefined, requestSignal.reason ?? error);
    throw AgentloopError.isInstance(error) ? error : call.toError(error);
  };
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => iterator.next().then(onResult, onError),
      return: async (value?: unknown) => {
        // Stopped before the answer was complete (a cancel, a consumer that gave up): cut the request.
        // Aborting here rather than relying on the forwarded abort matters: a cancel may stop this stream
        // while the run's signal is still dispatching, and a source that is waiting on its read (an async
        // generator) would only run its own `return` once that read settles.
        if (!settled) {
          settle();
          attempt.abort(requestSignal.reason);
        }
        await iterator.return?.();
        return { done: true, value: value as ModelChunk };
      },
    }),
  };
}

/** A stream that fails at its first read: what an attempt that threw before streaming amounts to. */
function failing(error: unknown): AsyncIterable<ModelChunk> {
  return {
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
  };
}

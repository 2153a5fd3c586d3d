import {
  AgentloopError,
  CancelledError,
  type ModelChunk,
  type ModelRequest,
  ProviderError,
  type RetryPolicy,
  type Sleep,
  streamWithRetry,
  withIdleTimeout,
} from '@agentloop/core';

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

/** One model call of an adapter. */
export interface ModelCall extends ModelCallSettings {
  /** The provider's id, for error messages. */
  provider: string;
  /** The request; its signal cancels the call. */
  request: ModelRequest;
  /**
   * Sends the request once, with `signal` (the request's, also aborted by the idle timeout), and streams
   * its chunks; it must end with a `finish` chunk or throw. `touch` marks activity that yields no chunk
   * (tool-argument pieces, pings) for the idle timeout.
   */
  attempt: (signal: AbortSignal, touch: () => void) => AsyncIterable<ModelChunk>;
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
  const watched = call.idleTimeoutMs > 0 && Number.isFinite(call.idleTimeoutMs);
  // With an idle timeout, the attempt has its own signal, aborted by the request's or by the timeout (a
  // listener is cheaper than AbortSignal.any); without one, the request's own will do. This runs on every
  // model call, and each AbortController costs.
  const attempt = watched ? new AbortController() : undefined;
  const forwardAbort = (): void => attempt?.abort(requestSignal.reason);
  if (attempt) requestSignal.addEventListener('abort', forwardAbort, { once: true });
  const stopForwarding = (): void => {
    if (attempt) requestSignal.removeEventListener('abort', forwardAbort);
  };
  let touch = (): void => {};
  const chunks = withIdleTimeout(
    call.attempt(attempt?.signal ?? requestSignal, () => touch()),
    {
      idleTimeoutMs: call.idleTimeoutMs,
      keepAlive: (keepAlive) => {
        touch = keepAlive;
      },
      onTimeout: () => attempt?.abort(),
      createError: (ms) =>
        new ProviderError(`${call.provider}: the stream sent nothing for ${ms} ms`, {
          code: 'timeout',
          provider: call.provider,
        }),
    },
  );
  const iterator = chunks[Symbol.asyncIterator]();
  const onResult = (result: IteratorResult<ModelChunk>): IteratorResult<ModelChunk> => {
    if (result.done) stopForwarding();
    return result;
  };
  const onError = (error: unknown): never => {
    stopForwarding();
    // The SDKs end a stream quietly when its signal aborts; whatever broke after a cancel is the cancel.
    if (requestSignal.aborted) throw new CancelledError(undefined, requestSignal.reason ?? error);
    throw AgentloopError.isInstance(error) ? error : call.toError(error);
  };
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => iterator.next().then(onResult, onError),
      return: async (value?: unknown) => {
        stopForwarding();
        await iterator.return?.();
        return { done: true, value: value as ModelChunk };
      },
    }),
  };
}

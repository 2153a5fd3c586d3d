import { type RetryPolicy, type Sleep, streamWithRetry } from '@agentloop/provider-utils';
import type { AgentloopError, ModelChunk, ModelRequest } from '@agentloop/spec';
import { AttemptChunks } from './attempt-chunks.js';
import { releaseGraceMs } from './drain-in-background.js';
import type { EventReader, OpenedAttempt } from './event-reader.js';

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
   * drainInBackground): stopping the stream from then on must not cut the request, whose
   * connection is going back to the pool.
   */
  released: () => void;
}

/** One model call of an adapter. */
interface ModelCallBase extends ModelCallSettings {
  /** The provider's id, for error messages. */
  provider: string;
  /** The request; its signal cancels the call. */
  request: ModelRequest;
  /** Turns what an attempt threw (SDK errors, parse errors) into an AgentloopError. */
  toError: (error: unknown) => AgentloopError;
  /** How long the rest of a complete answer is read in the background (default: releaseGraceMs(idleTimeoutMs)). */
  releaseGraceMs?: number;
}

/**
 * One model call of an adapter: either `open`, which sends the request once with the signal it is given
 * and returns the SDK's events with the reader that turns them into chunks (the fast path: see
 * AttemptChunks), or `attempt`, which streams the chunks itself and must end with a `finish` chunk or throw.
 */
export type ModelCall =
  | (ModelCallBase & { open: (signal: AbortSignal) => Promise<OpenedAttempt<unknown>>; attempt?: never })
  | (ModelCallBase & { attempt: (controls: AttemptControls) => AsyncIterable<ModelChunk>; open?: never });

/**
 * Runs a model call with the one retry layer of the project, streaming its chunks in batches (one per network
 * read, one for a response that is not streamed): each attempt is watched by the idle timeout, failures become ProviderErrors, retryable ones start the step again (announced by `retry`
 * chunks), and an abort of the request's signal ends the call with a CancelledError.
 */
export function streamModelCall(call: ModelCall): AsyncIterable<readonly ModelChunk[]> {
  const settings = {
    provider: call.provider,
    request: call.request,
    idleTimeoutMs: call.idleTimeoutMs,
    releaseGraceMs: call.releaseGraceMs ?? releaseGraceMs(call.idleTimeoutMs),
    toError: call.toError,
  };
  const open = call.open
    ? (chunks: AttemptChunks<unknown>) => call.open(chunks.controller.signal)
    : (chunks: AttemptChunks<unknown>) => openChunkStream(call.attempt, chunks);
  return streamWithRetry(() => ({ [Symbol.asyncIterator]: () => new AttemptChunks(settings, open) }), {
    signal: call.request.signal,
    policy: call.retry,
    sleep: call.sleep,
    random: call.random,
  });
}

/** An adapter that streams chunks itself: its chunks are the events, read one for one. */
function openChunkStream(
  attempt: (controls: AttemptControls) => AsyncIterable<ModelChunk>,
  chunks: AttemptChunks<unknown>,
): Promise<OpenedAttempt<unknown>> {
  const events = attempt({ signal: chunks.controller.signal, touch: chunks.touch, released: chunks.settle });
  return Promise.resolve({ events, reader: new PassThroughReader() });
}

class PassThroughReader implements EventReader<unknown> {
  readonly complete = false;
  read(event: unknown): readonly ModelChunk[] {
    return [event as ModelChunk];
  }
  finish(): readonly ModelChunk[] {
    return [];
  }
}

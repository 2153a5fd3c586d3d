import { AgentloopError, CancelledError, type ModelChunk, type ModelRequest, ProviderError } from '@agentloop/spec';
import { acquireController, releaseController } from './attempt-controllers.js';
import { drainInBackground } from './drain-in-background.js';
import { type AttemptEvents, type EventReader, type OpenedAttempt, readEvent } from './event-reader.js';

/** How AttemptChunks runs one attempt. */
export interface AttemptChunksSettings {
  provider: string;
  request: ModelRequest;
  idleTimeoutMs: number;
  /** How long the rest of a complete answer is read in the background before its connection is cut. */
  releaseGraceMs: number;
  toError: (error: unknown) => AgentloopError;
}

const DONE: IteratorResult<readonly ModelChunk[]> = { done: true, value: undefined };

// The end of the current turn of the event loop, which is where one network read's events end (see
// #gather). Taken when the module loads, so that a test's fake timers, which control time, do not also
// hold back the end of a turn.
const { setImmediate: endOfTurn, clearImmediate: cancelEndOfTurn } = globalThis;
const NONE: readonly ModelChunk[] = [];

/**
 * One attempt of a model call as a single iterator of chunk batches: it opens the request, reads the SDK's
 * events, turns those of one network read into a batch of chunks (see #gather; a response that is not
 * streamed is one batch), watches the stream for silence (the idle timeout), hands the rest of a complete answer
 * to the background, and turns failures into AgentloopErrors (a CancelledError after a cancel).
 *
 * What the profile showed: this used to be five async layers per chunk (the SDK's iterator, a reader that stopped at the final event,
 * the adapter's async generator, withIdleTimeout, the error mapping), each with a promise or a generator
 * hop, plus `Date.now()` on every chunk. Here the chunks of one network read are handed on as one batch
 * (one promise per read, not per chunk), the idle clock is read once per network event, and its one timer per
 * attempt is re-armed only when it fires early. A non-streamed response is one batch, with no wait at all.
 *
 * The attempt has an AbortController to itself (lent: see acquireController), aborted by the request's
 * signal, by the idle timeout, or when the consumer stops before the answer is complete. It is what the SDK listens to: the OpenAI SDK
 * never removes its listener from the signal it is given, which must therefore not be the run's.
 */
export class AttemptChunks<E> implements AsyncIterator<readonly ModelChunk[]> {
  readonly #lent = acquireController();
  #returned = false;
  readonly #settings: AttemptChunksSettings;
  readonly #requestSignal: AbortSignal;
  readonly #open: (chunks: AttemptChunks<E>) => Promise<OpenedAttempt<E>>;
  #reader: EventReader<E> | undefined;
  /** The SDK's stream while it is being read; undefined before, and once it ended, failed or was released. */
  #source: AsyncIterator<E> | undefined;
  /** A read of the SDK's stream started while gathering a batch, which the next fill takes over. */
  #ahead: Promise<IteratorResult<E>> | undefined;
  /** What failed while a batch was gathered: thrown once the batch before it has been handed on. */
  #failure: { error: unknown } | undefined;
  /** The controller of the SDK's stream, which cuts its request once the rest is read in the background. */
  #controllerOfSource: AbortController | undefined;
  /** The batch read and not handed on yet (NONE when there is none). */
  #buffer: readonly ModelChunk[] = NONE;
  /** No more chunks will come: the events ended, the answer is complete, or the attempt failed. */
  #ended = false;
  /** The answer is complete (or failed): from then on the request must not be aborted. */
  #settled = false;
  // The idle timeout: when the current wait for an event began, how to fail it, and the attempt's timer.
  #waitingSince: number | undefined;
  #failWait: ((error: unknown) => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(settings: AttemptChunksSettings, open: (chunks: AttemptChunks<E>) => Promise<OpenedAttempt<E>>) {
    this.#settings = settings;
    this.#requestSignal = settings.request.signal;
    this.#open = open;
    this.#requestSignal.addEventListener('abort', this.#forwardAbort, { once: true });
  }

  /** The attempt's controller, whose signal the SDK gets (see acquireController). */
  get controller(): AbortController {
    return this.#lent.controller;
  }

  /** Marks activity that yields no event of the SDK's, for the idle timeout. */
  readonly touch = (): void => {
    if (this.#waitingSince !== undefined) this.#waitingSince = Date.now();
  };

  /** Says the answer is complete while the rest of the body is still being read elsewhere. */
  readonly settle = (): void => {
    if (this.#settled) return;
    this.#settled = true;
    this.#requestSignal.removeEventListener('abort', this.#forwardAbort);
    this.#giveBack();
  };

  next(): Promise<IteratorResult<readonly ModelChunk[]>> {
    if (this.#buffer.length > 0) return Promise.resolve(this.#serve());
    const failure = this.#failure;
    if (failure) {
      this.#failure = undefined;
      return Promise.reject(failure.error).then(undefined, this.#onError);
    }
    if (this.#ended) return Promise.resolve(DONE);
    return this.#fill().then(this.#afterFill, this.#onError);
  }

  async return(value?: unknown): Promise<IteratorResult<readonly ModelChunk[]>> {
    // Stopped before the answer was complete (a cancel, a consumer that gave up): cut the request. Aborting
    // here rather than relying on the forwarded abort matters: a cancel may stop this stream while the run's
    // signal is still dispatching.
    if (!this.#settled) {
      this.controller.abort(this.#requestSignal.reason);
      this.settle();
    }
    const source = this.#source;
    this.#end();
    this.#buffer = NONE;
    await source?.return?.();
    return { done: true, value: value as readonly ModelChunk[] };
  }

  readonly #forwardAbort = (): void => this.controller.abort(this.#requestSignal.reason);

  #serve(): IteratorResult<readonly ModelChunk[]> {
    const batch = this.#buffer;
    this.#buffer = NONE;
    // Once the finish is handed on, a consumer that stops must not cut a request whose answer is complete.
    if (batch.some(isFinish)) this.settle();
    return { done: false, value: batch };
  }

  readonly #afterFill = (): IteratorResult<readonly ModelChunk[]> => {
    if (this.#buffer.length > 0) return this.#serve();
    this.settle();
    return DONE;
  };

  /** Fills the buffer with the next chunks, or ends. */
  #fill(): Promise<void> {
    if (this.#reader !== undefined) return this.#pull();
    let opened: Promise<OpenedAttempt<E>>;
    try {
      opened = this.#open(this);
    } catch (error) {
      opened = Promise.reject(error);
    }
    // Until the response starts, the wait counts as silence too.
    return this.#watch(opened).then(this.#onOpened);
  }

  readonly #onOpened = ({ events, reader }: OpenedAttempt<E>): Promise<void> | undefined => {
    this.#reader = reader;
    if (!isEventArray(events)) {
      this.#source = events[Symbol.asyncIterator]();
      this.#controllerOfSource = events.controller;
      return this.#pull();
    }
    // Not streamed: every chunk at once.
    const chunks: ModelChunk[] = [];
    for (const event of events) for (const chunk of readEvent(reader, event)) chunks.push(chunk);
    for (const chunk of reader.finish()) chunks.push(chunk);
    this.#take(chunks);
    this.#ended = true;
    return undefined;
  };

  /** Reads events until one yields chunks, the answer is complete, or the events end. */
  #pull(): Promise<void> {
    const ahead = this.#ahead;
    this.#ahead = undefined;
    return this.#watch(ahead ?? (this.#source as AsyncIterator<E>).next()).then(this.#onEvent);
  }

  readonly #onEvent = (result: IteratorResult<E>): Promise<void> | undefined => {
    const reader = this.#reader as EventReader<E>;
    if (result.done) {
      this.#source = undefined;
      this.#end();
      this.#take(reader.finish());
      return undefined;
    }
    const chunks = readEvent(reader, result.value);
    if (reader.complete) {
      this.#release();
      const owed = reader.finish();
      this.#take(owed.length === 0 ? chunks : [...chunks, ...owed]);
      return undefined;
    }
    if (chunks.length === 0) return this.#pull();
    return this.#gather(chunks);
  };

  /**
   * Makes a batch of what one network read brought: after an event with chunks, the events the SDK hands
   * over before this turn of the event loop ends (it decodes the rest of the bytes it already has with no
   * I/O in between) join the batch. Why: each event handed on alone costs a promise in
   * each layer above (the retry layer, the agent's cancel race, its `for await`), more than the work of
   * the event; a server that writes a whole answer at once gives a whole answer per batch. A read still
   * pending at the end of the turn is taken over by the next fill, so nothing waits on the network here.
   */
  #gather(first: readonly ModelChunk[]): Promise<void> {
    return new Promise<void>((resolve) => {
      let batch = first;
      let owned: ModelChunk[] | undefined;
      let open = true;
      const close = (): void => {
        open = false;
        this.#take(batch);
        resolve();
      };
      const turnEnded = endOfTurn(() => {
        if (open) close();
      });
      const add = (chunks: readonly ModelChunk[]): void => {
        if (chunks.length === 0) return;
        if (owned === undefined) batch = owned = [...batch];
        for (const chunk of chunks) owned.push(chunk);
      };
      const readAhead = (): void => {
        const source = this.#source;
        if (source === undefined) {
          cancelEndOfTurn(turnEnded);
          close();
          return;
        }
        const ahead = source.next();
        this.#ahead = ahead;
        ahead.then(
          (result) => {
            if (!open) return; // the turn ended first: the next fill takes this read over
            this.#ahead = undefined;
            let more: boolean;
            try {
              more = this.#addEvent(result, add);
            } catch (error) {
              // The output before the failure is handed on first, as it would have been without the batch.
              this.#failure = { error };
              more = false;
            }
            if (more) readAhead();
            else {
              cancelEndOfTurn(turnEnded);
              close();
            }
          },
          () => {
            // Handed on with the batch: the next fill takes this read over and throws its error.
            if (!open) return;
            cancelEndOfTurn(turnEnded);
            close();
          },
        );
      };
      readAhead();
    });
  }

  /** Adds the chunks of one more event to a batch being gathered; false when no event will follow it. */
  #addEvent(result: IteratorResult<E>, add: (chunks: readonly ModelChunk[]) => void): boolean {
    const reader = this.#reader as EventReader<E>;
    if (result.done) {
      this.#source = undefined;
      this.#end();
      add(reader.finish());
      return false;
    }
    add(readEvent(reader, result.value));
    if (!reader.complete) return true;
    this.#release();
    add(reader.finish());
    return false;
  }

  #take(chunks: readonly ModelChunk[]): void {
    this.#buffer = chunks;
  }

  /**
   * The SDKs read on until the server ends the body (past `[DONE]`, past `message_stop`): the step goes on at
   * once and the rest is read in the background (see drainInBackground), the connection going back to the pool.
   */
  #release(): void {
    const source = this.#source;
    this.#source = undefined;
    this.settle();
    this.#end();
    if (!source) return;
    if (this.#controllerOfSource) drainInBackground(source, this.#controllerOfSource, this.#settings.releaseGraceMs);
    else void Promise.resolve(source.return?.()).catch(() => undefined);
  }

  /** A wait on the SDK (its response, its next event), failed by the idle timeout if it lasts too long. */
  #watch<T>(read: Promise<T>): Promise<T> {
    const idleTimeoutMs = this.#settings.idleTimeoutMs;
    if (!(idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs))) return read;
    this.#waitingSince = Date.now();
    if (this.#timer === undefined) this.#timer = setTimeout(this.#checkIdle, idleTimeoutMs);
    return new Promise<T>((resolve, reject) => {
      this.#failWait = reject;
      read.then(
        (result) => {
          if (this.#failWait !== reject) return; // timed out meanwhile: the read already failed
          this.#failWait = undefined;
          this.#waitingSince = undefined;
          resolve(result);
        },
        (error: unknown) => {
          if (this.#failWait !== reject) return;
          this.#failWait = undefined;
          this.#waitingSince = undefined;
          reject(error);
        },
      );
    });
  }

  readonly #checkIdle = (): void => {
    this.#timer = undefined;
    const since = this.#waitingSince;
    if (since === undefined) return; // not waiting: the next wait arms the timer again
    const idleTimeoutMs = this.#settings.idleTimeoutMs;
    const waited = Date.now() - since;
    if (waited < idleTimeoutMs) {
      this.#timer = setTimeout(this.#checkIdle, idleTimeoutMs - waited);
      return;
    }
    const fail = this.#failWait;
    const source = this.#source;
    this.#failWait = undefined;
    this.controller.abort();
    this.#end();
    // The source may never settle its pending read: stop it without waiting.
    void Promise.resolve(source?.return?.()).catch(() => undefined);
    const { provider } = this.#settings;
    fail?.(
      new ProviderError(`${provider}: the stream sent nothing for ${idleTimeoutMs} ms`, { code: 'timeout', provider }),
    );
  };

  /** No more events will be read: stops the idle clock. */
  #end(): void {
    this.#ended = true;
    this.#source = undefined;
    this.#waitingSince = undefined;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#giveBack();
  }

  /** Once the answer is complete (or failed) and nothing more is read, the controller can serve another attempt. */
  #giveBack(): void {
    if (this.#returned || !this.#settled || !this.#ended) return;
    this.#returned = true;
    releaseController(this.#lent);
  }

  readonly #onError = (error: unknown): never => {
    const source = this.#source;
    this.#end();
    this.#buffer = NONE;
    this.settle();
    // A reader that threw leaves the SDK's stream open: stop it (an SDK that threw is stopped already).
    if (source) void Promise.resolve(source.return?.()).catch(() => undefined);
    // The SDKs end a stream quietly when its signal aborts; whatever broke after a cancel is the cancel.
    const requestSignal = this.#requestSignal;
    if (requestSignal.aborted) throw new CancelledError(undefined, requestSignal.reason ?? error);
    throw AgentloopError.isInstance(error) ? error : this.#settings.toError(error);
  };
}

function isFinish(chunk: ModelChunk): boolean {
  return chunk.type === 'finish';
}

function isEventArray<E>(events: AttemptEvents<E>): events is readonly E[] {
  return Array.isArray(events);
}

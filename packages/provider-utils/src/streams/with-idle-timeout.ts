/** Timer functions and a clock, injectable so that tests control time. */
export interface IdleTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  /** Milliseconds on a clock that `setTimeout` agrees with. */
  now: () => number;
}

/** Options of withIdleTimeout. */
export interface IdleTimeoutOptions {
  /** The longest wait for the next item, in milliseconds; 0 or Infinity disables the timeout. */
  idleTimeoutMs: number;
  /** Builds the error thrown when the source stays silent too long. */
  createError: (idleTimeoutMs: number) => Error;
  /**
   * Called when the timeout fires, before the error is thrown; abort the request behind the source here,
   * since a pending read cannot be cancelled from outside.
   */
  onTimeout?: () => void;
  /** Defaults to the global timers and `Date.now`. */
  timers?: IdleTimers;
  /**
   * Receives `touch`, which counts as activity: call it for raw events that yield no item (streamed
   * tool-argument pieces, pings), so a long tool input is not taken for a dead stream.
   */
  keepAlive?: (touch: () => void) => void;
}

const globalTimers: IdleTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

/**
 * Passes `source` through, throwing `createError()` when a read waits longer than `idleTimeoutMs`.
 * Only the wait for the source counts: time the consumer spends between reads does not. Disabled, it is
 * `source` itself.
 *
 * An iterator rather than a generator, since every chunk of a model call passes here: per read one
 * promise, and one timer per call, re-armed only when it fires early (activity moved the deadline). One
 * read at a time, as `for await` makes them.
 */
export function withIdleTimeout<T>(source: AsyncIterable<T>, options: IdleTimeoutOptions): AsyncIterable<T> {
  const { idleTimeoutMs } = options;
  if (!(idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs))) return source;
  return {
    [Symbol.asyncIterator]: () => idleTimeoutIterator(source[Symbol.asyncIterator](), idleTimeoutMs, options),
  };
}

function idleTimeoutIterator<T>(
  iterator: AsyncIterator<T>,
  idleTimeoutMs: number,
  options: IdleTimeoutOptions,
): AsyncIterator<T> {
  const timers = options.timers ?? globalTimers;
  let handle: unknown;
  let waitingSince: number | undefined;
  let failRead: ((error: Error) => void) | undefined;
  let finished = false;
  const arm = (ms: number): void => {
    handle = timers.setTimeout(check, ms);
  };
  const disarm = (): void => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
  };
  const check = (): void => {
    handle = undefined;
    if (waitingSince === undefined) return;
    const waited = timers.now() - waitingSince;
    if (waited < idleTimeoutMs) {
      arm(idleTimeoutMs - waited);
      return;
    }
    const fail = failRead;
    failRead = undefined;
    waitingSince = undefined;
    finished = true;
    options.onTimeout?.();
    // The source may never settle its pending read: stop it without waiting.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
    fail?.(options.createError(idleTimeoutMs));
  };
  options.keepAlive?.(() => {
    if (waitingSince !== undefined) waitingSince = timers.now();
  });
  return {
    next() {
      if (finished) return Promise.resolve({ done: true, value: undefined });
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        waitingSince = timers.now();
        failRead = reject;
        if (handle === undefined) arm(idleTimeoutMs);
        iterator.next().then(
          (result) => {
            if (failRead !== reject) return; // timed out meanwhile: the read already failed
            failRead = undefined;
            waitingSince = undefined;
            if (result.done) {
              finished = true;
              disarm();
            }
            resolve(result);
          },
          (error: unknown) => {
            if (failRead !== reject) return;
            failRead = undefined;
            waitingSince = undefined;
            finished = true;
            disarm();
            reject(error);
          },
        );
      });
    },
    async return(value?: unknown) {
      disarm();
      if (!finished) {
        finished = true;
        await Promise.resolve(iterator.return?.()).catch(() => undefined);
      }
      return { done: true, value: value as T };
    },
  };
}

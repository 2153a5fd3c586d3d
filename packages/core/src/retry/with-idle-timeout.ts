/** Timer functions, injectable so that tests control time. */
export interface IdleTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
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
  /** Defaults to the global timers. */
  timers?: IdleTimers;
}

const globalTimers: IdleTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Passes `source` through, throwing `createError()` when a read waits longer than `idleTimeoutMs`.
 * Only the wait for the source counts: time the consumer spends between reads does not.
 */
export async function* withIdleTimeout<T>(source: AsyncIterable<T>, options: IdleTimeoutOptions): AsyncGenerator<T, void, undefined> {
  const { idleTimeoutMs } = options;
  if (!(idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs))) {
    yield* source;
    return;
  }
  const timers = options.timers ?? globalTimers;
  const iterator = source[Symbol.asyncIterator]();
  let timedOut = false;
  let done = false;
  const next = (): Promise<IteratorResult<T>> =>
    new Promise((resolve, reject) => {
      const handle = timers.setTimeout(() => {
        timedOut = true;
        options.onTimeout?.();
        reject(options.createError(idleTimeoutMs));
      }, idleTimeoutMs);
      iterator.next().then(
        (result) => {
          timers.clearTimeout(handle);
          resolve(result);
        },
        (error: unknown) => {
          timers.clearTimeout(handle);
          reject(error);
        },
      );
    });
  try {
    for (;;) {
      const result = await next();
      if (result.done) {
        done = true;
        return;
      }
      yield result.value;
    }
  } finally {
    if (!done) {
      // After a timeout the source's read is still pending, and `return()` would wait for it: do not await.
      const closing = iterator.return?.();
      if (timedOut) closing?.catch(() => undefined);
      else await closing?.catch(() => undefined);
    }
  }
}

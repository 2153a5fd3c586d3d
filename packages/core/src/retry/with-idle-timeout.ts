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
 * Only the wait for the source counts: time the consumer spends between reads does not.
 */
export async function* withIdleTimeout<T>(
  source: AsyncIterable<T>,
  options: IdleTimeoutOptions,
): AsyncGenerator<T, void, undefined> {
  const { idleTimeoutMs } = options;
  if (!(idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs))) {
    yield* source;
    return;
  }
  const timers = options.timers ?? globalTimers;
  const iterator = source[Symbol.asyncIterator]();
  // One timer per silent stretch rather than one per item: streams deliver many small items, and the
  // timer only needs to look at when the pending read began.
  let handle: unknown;
  let waitingSince: number | undefined;
  let failRead: ((error: Error) => void) | undefined;
  let timedOut = false;
  const arm = (ms: number): void => {
    handle = timers.setTimeout(check, ms);
  };
  const check = (): void => {
    handle = undefined;
    if (waitingSince === undefined) return;
    const waited = timers.now() - waitingSince;
    if (waited < idleTimeoutMs) {
      arm(idleTimeoutMs - waited);
      return;
    }
    timedOut = true;
    options.onTimeout?.();
    failRead?.(options.createError(idleTimeoutMs));
  };
  options.keepAlive?.(() => {
    if (waitingSince !== undefined) waitingSince = timers.now();
  });
  const next = (): Promise<IteratorResult<T>> =>
    new Promise((resolve, reject) => {
      waitingSince = timers.now();
      failRead = reject;
      if (handle === undefined) arm(idleTimeoutMs);
      iterator.next().then(
        (result) => {
          waitingSince = undefined;
          resolve(result);
        },
        (error: unknown) => {
          waitingSince = undefined;
          reject(error);
        },
      );
    });
  let done = false;
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
    if (handle !== undefined) timers.clearTimeout(handle);
    if (!done) {
      // After a timeout the source's read is still pending, and `return()` would wait for it: do not await.
      const closing = iterator.return?.();
      if (timedOut) closing?.catch(() => undefined);
      else await closing?.catch(() => undefined);
    }
  }
}

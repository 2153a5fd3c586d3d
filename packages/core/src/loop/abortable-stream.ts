import { CancelledError } from '@agentloop/spec';

/**
 * The chunks of a stream until it ends or the signal aborts, whichever comes first. On abort it stops
 * waiting at once, even for a source that ignores the signal, and tells the source to stop (`return`)
 * without waiting for it.
 *
 * Runs on every batch of chunks of every model call, so it is written for speed: an iterator rather than a
 * generator (no generator hop), one listener per stream, and per read a single promise that settles with
 * the source's result or, on abort, with a CancelledError (`Promise.race` would also leave a reaction on a
 * never-settling promise at every read). Like the streams it wraps, it serves one read at a time, as
 * `for await` makes them.
 */
export function abortable<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      const iterator = source[Symbol.asyncIterator]();
      let failPending: ((error: unknown) => void) | undefined;
      let listening = false;
      const cancelled = () => new CancelledError(undefined, signal.reason);
      const stopSource = () => void Promise.resolve(iterator.return?.()).catch(() => undefined);
      const onAbort = () => {
        listening = false;
        const fail = failPending;
        failPending = undefined;
        if (fail) {
          fail(cancelled());
          // After the abort event has reached every listener: a source stopped during the dispatch could
          // remove listeners of its own (the ones that cancel its request) before they are called.
          queueMicrotask(stopSource);
        }
      };
      const stopListening = () => {
        if (listening) signal.removeEventListener('abort', onAbort);
        listening = false;
      };
      return {
        next() {
          if (signal.aborted) {
            stopListening();
            stopSource();
            return Promise.reject(cancelled());
          }
          if (!listening) {
            signal.addEventListener('abort', onAbort, { once: true });
            listening = true;
          }
          return new Promise<IteratorResult<T>>((resolve, reject) => {
            failPending = reject;
            iterator.next().then(
              (result) => {
                if (failPending !== reject) return; // aborted meanwhile: the read already failed
                failPending = undefined;
                if (result.done) stopListening();
                resolve(result);
              },
              (error: unknown) => {
                if (failPending !== reject) return;
                failPending = undefined;
                stopListening();
                reject(error);
              },
            );
          });
        },
        async return(value?: unknown) {
          stopListening();
          stopSource();
          // An iterator's `return` gives back whatever value it was handed; the protocol types it loosely.
          return { done: true, value: value as T };
        },
      };
    },
  };
}

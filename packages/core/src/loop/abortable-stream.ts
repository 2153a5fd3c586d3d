import { CancelledError } from '../errors/index.js';

/**
 * The chunks of a stream until it ends or the signal aborts, whichever comes first. On abort it stops
 * waiting at once, even for a source that ignores the signal, and tells the source to stop (`return`)
 * without waiting for it. An async iterable rather than a generator, so it adds no generator hop per chunk.
 */
export function abortable<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = source[Symbol.asyncIterator]();
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<never>((_resolve, reject) => {
        onAbort = () => reject(new CancelledError(undefined, signal.reason));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
      aborted.catch(() => undefined);
      const stop = () => {
        if (onAbort) signal.removeEventListener('abort', onAbort);
      };
      return {
        async next() {
          try {
            const result = await Promise.race([iterator.next(), aborted]);
            if (result.done) stop();
            return result;
          } catch (error) {
            stop();
            if (signal.aborted) void Promise.resolve(iterator.return?.()).catch(() => undefined);
            throw error;
          }
        },
        async return(value?: unknown) {
          stop();
          void Promise.resolve(iterator.return?.()).catch(() => undefined);
          return { done: true, value: value as T };
        },
      };
    },
  };
}

import { CancelledError } from '../errors/index.js';

/**
 * Iterates a stream until it ends or the signal aborts, whichever comes first. On abort it stops
 * waiting at once, even for a source that ignores the signal, and tells the source to stop (`return`)
 * without waiting for it.
 */
export async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new CancelledError(undefined, signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  let done = false;
  try {
    while (true) {
      if (signal.aborted) throw new CancelledError(undefined, signal.reason);
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    if (!done) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}

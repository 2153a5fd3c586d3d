/** A streamed response of a vendor SDK: its events, and the controller that cancels its request. */
export interface SdkEventStream<T> extends AsyncIterable<T> {
  readonly controller: AbortController;
}

/** The longest the rest of a finished answer is read in the background before its connection is cut. */
export const RELEASE_GRACE_MS = 5_000;

/** The grace for a provider's idle timeout: never longer than the silence it allows a stream. */
export function releaseGraceMs(idleTimeoutMs: number | undefined): number {
  return idleTimeoutMs !== undefined && idleTimeoutMs > 0
    ? Math.min(idleTimeoutMs, RELEASE_GRACE_MS)
    : RELEASE_GRACE_MS;
}

/**
 * The events of a response up to the one that completes the answer (`complete()` turns true after it).
 * The SDKs read on until the server ends the body — past `[DONE]`, past `message_stop` — so a server or
 * proxy that keeps the connection open would hold the step. Here the step goes on at once and the rest is
 * read in the background: a server that ends the response soon, as they all should, gets its connection
 * back in the pool (cutting it would cost a new connection, and a TLS handshake, every step); one that
 * does not is cut after `graceMs`.
 *
 * `onRelease` is called when the answer is complete and the rest goes to the background.
 *
 * An iterable rather than a generator: `next` hands on the SDK's own promise, adding no hop per event.
 */
export function untilComplete<T>(
  stream: SdkEventStream<T>,
  complete: () => boolean,
  graceMs: number,
  onRelease?: () => void,
): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = stream[Symbol.asyncIterator]();
      let released = false;
      return {
        next() {
          if (released) return Promise.resolve({ done: true, value: undefined });
          if (complete()) {
            released = true;
            onRelease?.();
            drainInBackground(iterator, stream.controller, graceMs);
            return Promise.resolve({ done: true, value: undefined });
          }
          return iterator.next();
        },
        // The consumer stopped early (a cancel, an error): the SDK's iterator cancels the request.
        async return() {
          if (!released) {
            released = true;
            await iterator.return?.();
          }
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Reads the rest of a response in the background, cutting its request after `graceMs`. */
export function drainInBackground(
  iterator: AsyncIterator<unknown>,
  controller: AbortController,
  graceMs: number,
): void {
  const timer = setTimeout(() => controller.abort(), graceMs);
  // A server that keeps the connection open must not keep the process alive on our account.
  timer.unref?.();
  void (async () => {
    try {
      while (!(await iterator.next()).done) {
        // Nothing after the completing event matters.
      }
    } catch {
      // A cut or a broken tail changes nothing: the answer is complete.
    } finally {
      clearTimeout(timer);
    }
  })();
}

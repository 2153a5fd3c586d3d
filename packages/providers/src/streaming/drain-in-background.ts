/** The longest the rest of a finished answer is read in the background before its connection is cut. */
export const RELEASE_GRACE_MS = 5_000;

/** The grace for a provider's idle timeout: never longer than the silence it allows a stream. */
export function releaseGraceMs(idleTimeoutMs: number | undefined): number {
  return idleTimeoutMs !== undefined && idleTimeoutMs > 0
    ? Math.min(idleTimeoutMs, RELEASE_GRACE_MS)
    : RELEASE_GRACE_MS;
}

/**
 * Reads the rest of a response in the background, cutting its request after `graceMs`. The SDKs read on
 * until the server ends the body (past `[DONE]`, past `message_stop`), so a server or proxy that keeps the
 * connection open would hold the step. Here the step goes on at once: a server that ends the response
 * soon, as they all should, gets its connection back in the pool (cutting it would cost a new connection,
 * and a TLS handshake, every step); one that does not is cut after `graceMs`.
 */
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

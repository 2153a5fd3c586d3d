/** How long a failed server waits before the next start: the first wait and the longest. */
export interface RestartBackoff {
  /** The wait after the first failure, in milliseconds. Default 1 000. */
  initialMs?: number;
  /** The longest wait, in milliseconds. Default 60 000. */
  maxMs?: number;
}

/**
 * The wait before the next start after `failures` failures in a row: doubled each time, up to the
 * longest. A server that crashes at every call is not restarted at every call, and one that crashed
 * once is back within a second.
 */
export function restartDelayMs(failures: number, backoff: RestartBackoff = {}): number {
  const initial = backoff.initialMs ?? 1_000;
  const max = backoff.maxMs ?? 60_000;
  if (failures <= 0) return 0;
  return Math.min(max, initial * 2 ** Math.min(failures - 1, 30));
}

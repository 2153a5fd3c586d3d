import type { AgentloopError } from '@agentloop/spec';

/** How failed model calls are retried: exponential backoff with full jitter. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 never retries. */
  maxRetries: number;
  /** Backoff ceiling before the first retry, in milliseconds. */
  initialDelayMs: number;
  /** The largest backoff ceiling, in milliseconds. */
  maxDelayMs: number;
  /** How much the backoff ceiling grows per retry. */
  factor: number;
  /**
   * The longest server-requested wait (`retry-after`) that is honoured, in milliseconds. A server asking
   * for more gets this long: waiting longer inside one model call would look like a hang, and giving up
   * at once would fail a call that a minute's wait may save.
   */
  maxRetryAfterMs: number;
}

/** The retry policy used when none is given: 4 retries, 0.5 s growing ×2 up to 30 s, full jitter. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 4,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  maxRetryAfterMs: 60_000,
});

/** The default policy with `overrides` applied. */
export function resolveRetryPolicy(overrides?: Partial<RetryPolicy>): Readonly<RetryPolicy> {
  return overrides === undefined ? DEFAULT_RETRY_POLICY : { ...DEFAULT_RETRY_POLICY, ...overrides };
}

/**
 * The backoff before retry `attempt` (1 for the first): a uniformly random wait below
 * `min(maxDelayMs, initialDelayMs × factor^(attempt−1))` ("full jitter"), so that clients that failed
 * together do not retry together.
 */
export function backoffDelayMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before retry `attempt` after `error`, or `undefined` when the error must not be retried: it is
 * not retryable, or the budget is spent. A server-requested wait (`retryAfterMs`) replaces the backoff,
 * up to `maxRetryAfterMs`; a request for no wait at all (`retry-after: 0`) gets the backoff, as in the
 * vendors' SDKs, so that a server saying 0 is not hammered by every retry at once.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  error: AgentloopError,
  random: () => number = Math.random,
): number | undefined {
  if (!error.retryable || attempt > policy.maxRetries) return undefined;
  const retryAfterMs = error.retryAfterMs;
  if (retryAfterMs !== undefined && retryAfterMs > 0 && !Number.isNaN(retryAfterMs)) {
    return Math.ceil(Math.min(retryAfterMs, policy.maxRetryAfterMs));
  }
  return backoffDelayMs(policy, attempt, random);
}

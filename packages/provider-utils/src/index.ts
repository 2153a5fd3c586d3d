// Helpers for writing a provider on @agentloop/spec: one retry layer (a policy with backoff and
// retry-after, a stream retried as a whole), an idle timeout for silent streams, and a cancellable wait.

export type { RetryPolicy } from './retry/retry-policy.js';
export { backoffDelayMs, DEFAULT_RETRY_POLICY, resolveRetryPolicy, retryDelayMs } from './retry/retry-policy.js';
export type { Sleep } from './retry/sleep.js';
export { sleep } from './retry/sleep.js';
export type { StreamWithRetryOptions } from './retry/stream-with-retry.js';
export { streamWithRetry } from './retry/stream-with-retry.js';
export type { IdleTimeoutOptions, IdleTimers } from './streams/with-idle-timeout.js';
export { withIdleTimeout } from './streams/with-idle-timeout.js';

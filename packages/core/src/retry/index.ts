export type { RetryPolicy } from './retry-policy.js';
export { backoffDelayMs, DEFAULT_RETRY_POLICY, resolveRetryPolicy, retryDelayMs } from './retry-policy.js';
export type { Sleep } from './sleep.js';
export { sleep } from './sleep.js';
export type { StreamWithRetryOptions } from './stream-with-retry.js';
export { streamWithRetry } from './stream-with-retry.js';
export type { IdleTimeoutOptions, IdleTimers } from './with-idle-timeout.js';
export { withIdleTimeout } from './with-idle-timeout.js';

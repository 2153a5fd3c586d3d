// Apart from retry-schema.ts: session settings read this before the prompt, where zod is not loaded.
import type { RetryConfig } from './retry-schema.js';

/** The providers' `retry` option from a `[retry]` table: only the keys it sets, under the providers' names. */
export function retryOverrides(config: RetryConfig | undefined): RetryOverrides | undefined {
  if (!config) return undefined;
  const overrides: RetryOverrides = {
    ...(config.max_retries === undefined ? {} : { maxRetries: config.max_retries }),
    ...(config.initial_delay_ms === undefined ? {} : { initialDelayMs: config.initial_delay_ms }),
    ...(config.max_delay_ms === undefined ? {} : { maxDelayMs: config.max_delay_ms }),
    ...(config.max_retry_after_ms === undefined ? {} : { maxRetryAfterMs: config.max_retry_after_ms }),
  };
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}

/** The part of the providers' retry policy the `[retry]` table sets. */
export interface RetryOverrides {
  maxRetries?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  maxRetryAfterMs?: number;
}

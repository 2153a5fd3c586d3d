import { z } from 'zod';

const milliseconds = (what: string) =>
  z.int(`must be a whole number of milliseconds (${what})`).nonnegative('must be 0 or more milliseconds');

/**
 * The `[retry]` table: how a failed model call is retried (a rate limit, an overloaded or failing server, a
 * dropped connection). Each key left out keeps the providers' default: 4 retries, backoff from 0.5 s
 * doubling up to 30 s with full jitter, and a server's `retry-after` honoured up to 60 s.
 */
export const retrySchema = z
  .strictObject({
    /** Retries after the first attempt; 0 never retries. */
    max_retries: z
      .int('must be a whole number of retries')
      .min(0, 'must be 0 (never retry) or more')
      .max(20, 'must be at most 20: more would keep a failing call going for many minutes')
      .optional(),
    /** The backoff ceiling before the first retry. */
    initial_delay_ms: milliseconds('e.g. 500').optional(),
    /** The largest backoff ceiling. */
    max_delay_ms: milliseconds('e.g. 30000').optional(),
    /** The longest `retry-after` a server may ask for and be waited for; longer asks wait this long. */
    max_retry_after_ms: milliseconds('e.g. 60000').optional(),
  })
  .refine(
    (retry) =>
      retry.initial_delay_ms === undefined ||
      retry.max_delay_ms === undefined ||
      retry.max_delay_ms >= retry.initial_delay_ms,
    { message: 'must not be below initial_delay_ms', path: ['max_delay_ms'] },
  );

/** The `[retry]` table as written in a configuration file. */
export type RetryConfig = z.infer<typeof retrySchema>;

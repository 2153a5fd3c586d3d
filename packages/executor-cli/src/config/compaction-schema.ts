import { z } from 'zod';

/**
 * The `[compaction]` table: when the agent summarises the older part of its conversation, so that a long
 * task does not outgrow the model's context window.
 */
export const compactionSchema = z.strictObject({
  /** false: never compact on its own (nor after a request rejected as too long); `/compact` still does. */
  enabled: z.boolean().optional(),
  /**
   * Compact before a request that would fill more than this share of the context window (default 0.8).
   * Below 1: a request that fills the whole window is one the provider rejects.
   */
  threshold: z
    .number('must be a number between 0 and 1, e.g. 0.8 for 80% of the context window')
    .gt(0, 'must be above 0 and below 1, e.g. 0.8 for 80% of the context window')
    .lt(1, 'must be above 0 and below 1, e.g. 0.8 for 80% of the context window')
    .optional(),
  /** The model's context window in tokens, instead of the model table's (for a local or unlisted model). */
  context_window: z.int('must be a whole number of tokens').positive('must be at least 1 token').optional(),
});

/** The `[compaction]` table as written in a configuration file. */
export type CompactionConfig = z.infer<typeof compactionSchema>;

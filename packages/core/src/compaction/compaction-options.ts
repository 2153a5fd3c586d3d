import type { Compactor } from '@agentloop/memory';

/** When and how an agent compacts its conversation. */
export interface CompactionOptions {
  /**
   * Compact before a request that would hold more than this share of the context window: a number above
   * 0 and at most 1. Default 0.8.
   */
  threshold?: number;
  /**
   * What compacts. Default: a SummarizingCompactor through the agent's own provider (pass one with
   * `provider` for a cheaper model), which falls back to dropping the middle.
   */
  compactor?: Compactor;
}

/**
 * The agent's `compaction` option: options, or `false` for no automatic compaction (neither before a
 * request nor after a `context_length` rejection); `agent.compact()` still compacts on demand.
 */
export type CompactionOption = CompactionOptions | false;

/** The share of the window past which a request is compacted, unless the options say otherwise. */
export const DEFAULT_COMPACTION_THRESHOLD = 0.8;

import type { Usage } from '@agentloop/spec';
import type { ContextUsage } from './context-usage.js';

/** What a run did and spent. `AgentResult.metrics` carries a run's. */
export interface RunMetrics {
  /** Tokens by kind: the model calls' and those of the compactions' summaries. */
  usage: Usage;
  /** Requests the loop sent to the model (one retried after a compaction counts twice; a provider's own retries do not). */
  modelCalls: number;
  /** Time spent in model calls, in milliseconds. */
  modelTimeMs: number;
  /** Retries the provider announced (rate limits, overload, broken streams). */
  retries: number;
  /** Tool calls answered, whether they ran, failed or were refused. */
  toolCalls: number;
  /** Tool calls whose result was an error. */
  toolErrors: number;
  /** Time the tool calls took, added up (calls that ran at once each count), in milliseconds. */
  toolTimeMs: number;
  /** Compactions of the conversation. */
  compactions: number;
  /** Wall time, in milliseconds. */
  wallTimeMs: number;
  /**
   * What the tokens cost in US dollars, from the models' prices. Absent when a model that was called has
   * no price in the model table: no cost is guessed.
   */
  costUsd?: number;
  /** How full the context was after the last model call; absent before any. */
  context?: ContextUsage;
}

/** The totals of every run of an agent (its session), and how many runs there were. */
export interface AgentMetrics extends RunMetrics {
  /** Runs that ended. */
  runs: number;
}

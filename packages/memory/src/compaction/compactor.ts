import type { LLMProvider, Message, ModelPricing, Usage } from '@agentloop/spec';
import type { TokenCounter } from '../tokens/token-counter.js';

/**
 * Why a conversation is compacted: the next request would pass the agent's threshold of the context
 * window, the app asked (`agent.compact()`), or the provider rejected a request as too long.
 */
export type CompactionReason = 'threshold' | 'manual' | 'context_length';

/** What a compactor is asked to do. */
export interface CompactionRequest {
  /** The conversation, oldest first, system messages included. */
  messages: readonly Message[];
  /**
   * The most tokens the compacted messages should hold. The system prompt and the tool definitions are
   * already taken off: this is the messages' share.
   */
  targetTokens: number;
  /** The model the conversation goes to next; counts are in its tokens. */
  modelId: string;
  /** Counts tokens (`countMessages`, `countText`). */
  counter: TokenCounter;
  /** The agent's provider, for a compactor that asks a model. */
  provider: LLMProvider;
  reason: CompactionReason;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
}

/** What a compaction kept whole. */
export interface CompactionKept {
  /** The system messages (instructions), always kept. */
  systemMessages: number;
  /** Whether the first user message, the task, was kept. */
  firstUserMessage: boolean;
  /** How many of the most recent messages were kept whole. */
  recentMessages: number;
}

/** How a compaction went. */
export interface CompactionResult {
  /** The compacted conversation, a history a provider accepts. */
  messages: Message[];
  /** How it was compacted: `summary`, `drop-middle`, or a custom compactor's own name. */
  strategy: string;
  /** What was kept whole. */
  kept: CompactionKept;
  /** How many messages a summary replaced. */
  summarizedMessages: number;
  /** How many messages were dropped without a summary. */
  droppedMessages: number;
  /** How many older tool results were emptied, their calls kept. */
  droppedToolResults: number;
  /** The summary, when one was written. */
  summary?: string;
  /** The tokens the compaction itself spent (a summarising model call), when it made one. */
  usage?: Usage;
  /** The price of the model that spent `usage`; absent when it has none (its cost is then unknown). */
  pricing?: ModelPricing;
  /** Why the compactor fell back from its first strategy, e.g. the summarising call failed. */
  fallbackReason?: string;
}

/**
 * Makes a conversation smaller so that the next request fits the model's context window. Keeps what a
 * continuing agent needs, never splits a tool call from its result, and returns a history a provider
 * accepts (the agent checks it, and refuses one that is not). `SummarizingCompactor` in @agentloop/core is
 * the default; `DropMiddleCompactor` needs no model.
 */
export interface Compactor {
  compact(request: CompactionRequest): Promise<CompactionResult>;
}

import type { AgentloopError } from '../errors/agentloop-error.js';
import type { Usage } from './usage.js';

/**
 * Why the model stopped. `stop`: it finished its answer; `stop-sequence`: it wrote a stop sequence
 * (not included in the text); `tool-calls`: it stopped to have tools run; `length`: it hit the output
 * token limit; `content-filter` / `refusal`: the provider or model declined; `pause`: the provider paused
 * a long turn (Anthropic `pause_turn`); `other`: anything else.
 */
export type FinishReason =
  | 'stop'
  | 'stop-sequence'
  | 'tool-calls'
  | 'length'
  | 'content-filter'
  | 'refusal'
  | 'pause'
  | 'other';

/** A piece of visible text. */
export interface TextDeltaChunk {
  type: 'text-delta';
  text: string;
}

/** A piece of reasoning text. */
export interface ThinkingDeltaChunk {
  type: 'thinking-delta';
  text: string;
}

/**
 * Closes the current reasoning block, with what must be sent back in later turns. A redacted block is a
 * `thinking-end` with `redactedData` and no deltas before it.
 */
export interface ThinkingEndChunk {
  type: 'thinking-end';
  /** Provider signature or encrypted reasoning. */
  signature?: string;
  /** Opaque data of redacted reasoning. */
  redactedData?: string;
  /** Provider-specific fields needed to send the block back. */
  providerMetadata?: Record<string, unknown>;
}

/** A tool call began; its arguments are still streaming. Optional: lets an executor show the call early. */
export interface ToolCallStartChunk {
  type: 'tool-call-start';
  toolCallId: string;
  toolName: string;
}

/** A complete tool call. */
export interface ToolCallChunk {
  type: 'tool-call';
  /** The call's id (providers invent one when a server sends none). */
  toolCallId: string;
  toolName: string;
  /** The arguments as the JSON text the model wrote; the loop decodes it. */
  input: string;
  /** Provider-specific fields needed to send the call back. */
  providerMetadata?: Record<string, unknown>;
}

/** Token usage of the call (may come more than once; later values add up). */
export interface UsageChunk {
  type: 'usage';
  usage: Partial<Usage>;
}

/** The model finished. Always the last chunk of a successful stream. */
export interface FinishChunk {
  type: 'finish';
  reason: FinishReason;
  /** The provider's own reason, e.g. `end_turn`, for logs. */
  rawReason?: string;
}

/**
 * The provider is about to retry the request. When `discardOutput` is true, output of this step was
 * already streamed and must be thrown away: the retry streams the step again from its start.
 */
export interface RetryChunk {
  type: 'retry';
  /** 1 for the first retry. */
  attempt: number;
  /** The wait before the retry starts. */
  delayMs: number;
  /** What failed. */
  error: AgentloopError;
  /** True when chunks of the failed attempt were already yielded. */
  discardOutput: boolean;
}

/** One piece of a streamed model response. */
export type ModelChunk =
  | TextDeltaChunk
  | ThinkingDeltaChunk
  | ThinkingEndChunk
  | ToolCallStartChunk
  | ToolCallChunk
  | UsageChunk
  | FinishChunk
  | RetryChunk;

/** One message of a sampling request's conversation. */
export interface SamplingMessage {
  readonly role: 'user' | 'assistant';
  /** The message's text; content that is not text is described in words. */
  readonly text: string;
}

/**
 * What the asker prefers in a model (MCP's `modelPreferences`): name hints (`claude-3-5-sonnet`,
 * `sonnet`), first match wins, and priorities between 0 and 1.
 */
export interface SamplingModelPreferences {
  readonly hints?: readonly string[];
  readonly costPriority?: number;
  readonly speedPriority?: number;
  readonly intelligencePriority?: number;
}

/** A request for a model completion, made by a tool while it runs (an MCP server's `sampling/createMessage`). */
export interface SamplingRequest {
  /** Who asks, for the user: an MCP server's name. */
  readonly server?: string;
  /** The conversation to complete, oldest first. */
  readonly messages: readonly SamplingMessage[];
  /** The system prompt the asker wants. */
  readonly systemPrompt?: string;
  /** The most tokens the completion may have. */
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: SamplingModelPreferences;
  /** Aborted when the asker gives up on the answer. */
  readonly signal?: AbortSignal;
}

/** Why a sampled completion stopped. */
export type SamplingStopReason = 'endTurn' | 'maxTokens' | 'stopSequence';

/** The completion: its text, the model that wrote it and why it stopped. */
export interface SamplingResult {
  readonly text: string;
  readonly model: string;
  readonly stopReason: SamplingStopReason;
}

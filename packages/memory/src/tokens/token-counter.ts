import type { Message, ToolDefinition, Usage } from '@agentloop/spec';

/** What a model request holds, for counting its tokens. */
export interface TokenCountRequest {
  /** The model the request goes to; it chooses the tokenizer. */
  modelId: string;
  /** The system prompt. */
  systemPrompt: string;
  /** The conversation sent, oldest first. */
  messages: readonly Message[];
  /** The tool definitions sent with it (none in the XML protocol, where the prompt holds them). */
  tools?: readonly ToolDefinition[];
}

/**
 * Knows how full a model's context is. The truth is what the provider reported for the last call; only
 * what the conversation gained since is estimated, with the model family's tokenizer where there is one
 * and a calibrated estimate otherwise. One counter serves one conversation: it remembers the last report.
 * `DefaultTokenCounter` is the default.
 */
export interface TokenCounter {
  /**
   * Records what the provider reported for a model call: `usage` covers a request whose conversation was
   * `sent`, and its `answer`, which the conversation keeps right after the messages of `sent` (absent when
   * no answer was kept). Later counts take these tokens as known and estimate only what follows.
   */
  recordUsage(usage: Usage, sent: readonly Message[], answer?: Message): void;
  /**
   * The tokens `request` holds: the last reported usage for the history it shares with the request, and
   * an estimate of the rest. A history rewritten since the report (compacted, restored) is all estimated.
   */
  countRequest(request: TokenCountRequest): number;
  /** The estimated tokens of messages, as a request carries them; no reported usage is involved. */
  countMessages(messages: readonly Message[], modelId: string): number;
  /** The estimated tokens of a text. */
  countText(text: string, modelId: string): number;
  /**
   * Makes counts for `modelId` as exact as they can be, e.g. by loading the model family's tokenizer;
   * counts are estimates until it resolves. Never rejects. Optional: a counter with nothing to load has none.
   */
  prepare?(modelId: string): Promise<void>;
}

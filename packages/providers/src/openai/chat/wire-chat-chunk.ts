/**
 * A streamed Chat Completions chunk as servers really send it: the SDK's ChatCompletionChunk, loosened
 * where OpenAI-compatible servers differ (reasoning fields, missing indexes and ids, arguments as objects).
 */
export interface WireChatChunk {
  choices?: WireChatChoice[] | null;
  usage?: WireChatUsage | null;
}

/** One choice of a chunk. */
export interface WireChatChoice {
  index?: number;
  delta?: WireChatDelta | null;
  finish_reason?: string | null;
}

/** What a chunk adds to the message. */
export interface WireChatDelta {
  content?: string | null;
  refusal?: string | null;
  /** Reasoning of DeepSeek, vLLM, llama.cpp and others. */
  reasoning_content?: string | null;
  /** Reasoning of Ollama, OpenRouter and LM Studio. */
  reasoning?: string | null;
  tool_calls?: WireChatToolCall[] | null;
}

/** A piece of a tool call. */
export interface WireChatToolCall {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | Record<string, unknown> | null } | null;
}

/** Token usage, reported in the last chunk with `stream_options.include_usage`. */
export interface WireChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

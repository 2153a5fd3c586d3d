/** What a model can do, as far as the loop needs to know. */
export interface ModelInfo {
  /** Context window in tokens (input and output together). */
  contextWindow: number;
  /** The most output tokens one response may have. */
  maxOutputTokens: number;
  /** Native function calling. */
  nativeTools: boolean;
  /** Several tool calls in one response. */
  parallelToolCalls: boolean;
  /** Reasoning (thinking) output. */
  reasoning: boolean;
  /** Stop sequences (OpenAI's reasoning models reject `stop`). */
  stopSequences: boolean;
}

/** One row of a model table: the first entry whose `prefix` starts the model id wins, longest first. */
export interface ModelTableEntry {
  /** The start of the model ids this row describes, e.g. `claude-sonnet-4`. */
  prefix: string;
  info: ModelInfo;
}

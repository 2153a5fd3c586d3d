/** Token counts of one model call, or of a whole run when added up. */
export interface Usage {
  /** Input (prompt) tokens, cache reads and writes included. */
  inputTokens: number;
  /** Output (completion) tokens, reasoning included. */
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  cacheReadTokens: number;
  /** Input tokens written to the provider's prompt cache. */
  cacheWriteTokens: number;
  /** Output tokens spent on reasoning, when the provider reports them. */
  reasoningTokens: number;
}

/** A usage of zero tokens. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}

/** The sum of two usages. */
export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  return {
    inputTokens: a.inputTokens + (b.inputTokens ?? 0),
    outputTokens: a.outputTokens + (b.outputTokens ?? 0),
    cacheReadTokens: a.cacheReadTokens + (b.cacheReadTokens ?? 0),
    cacheWriteTokens: a.cacheWriteTokens + (b.cacheWriteTokens ?? 0),
    reasoningTokens: a.reasoningTokens + (b.reasoningTokens ?? 0),
  };
}

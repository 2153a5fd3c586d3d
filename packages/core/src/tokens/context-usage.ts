/** How full a model's context is. */
export interface ContextUsage {
  /** Tokens the context holds: the last call's reported input and output, plus an estimate of what came after. */
  usedTokens: number;
  /** The context window in tokens: the model table's, or the agent's `contextWindow` option. */
  windowTokens: number;
  /** `usedTokens / windowTokens`: 0.8 is 80% full. */
  fraction: number;
}

/** The context usage of `usedTokens` in a window of `windowTokens`. */
export function contextUsage(usedTokens: number, windowTokens: number): ContextUsage {
  return { usedTokens, windowTokens, fraction: windowTokens > 0 ? usedTokens / windowTokens : 0 };
}

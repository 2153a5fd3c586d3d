import type { ModelPricing, Usage } from '@agentloop/spec';

/**
 * What `usage` costs at `pricing`, in US dollars. Input tokens read from or written to the prompt cache
 * are priced at their own rates when the pricing has them (at the input rate when not); reasoning tokens
 * are output tokens.
 */
export function usageCostUsd(usage: Usage, pricing: ModelPricing): number {
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const input = pricing.inputUsdPerMillion;
  return (
    (uncached * input +
      usage.cacheReadTokens * (pricing.cacheReadUsdPerMillion ?? input) +
      usage.cacheWriteTokens * (pricing.cacheWriteUsdPerMillion ?? input) +
      usage.outputTokens * pricing.outputUsdPerMillion) /
    1_000_000
  );
}

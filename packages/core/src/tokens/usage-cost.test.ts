import type { ModelPricing, Usage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { usageCostUsd } from './usage-cost.js';

const sonnet: ModelPricing = {
  inputUsdPerMillion: 3,
  outputUsdPerMillion: 15,
  cacheReadUsdPerMillion: 0.3,
  cacheWriteUsdPerMillion: 3.75,
};
const usage = (fields: Partial<Usage>): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  ...fields,
});

describe('usageCostUsd', () => {
  it('prices input and output tokens at their rates', () => {
    expect(usageCostUsd(usage({ inputTokens: 1_000_000, outputTokens: 100_000 }), sonnet)).toBeCloseTo(4.5, 10);
  });

  it('prices cache reads and writes, which input tokens include, at their own rates', () => {
    // 18,642 input tokens, all but 3 of them read from the cache (the recorded cache-read fixture).
    const cost = usageCostUsd(usage({ inputTokens: 18_642, cacheReadTokens: 18_639, outputTokens: 1 }), sonnet);
    expect(cost).toBeCloseTo((3 * 3 + 18_639 * 0.3 + 1 * 15) / 1e6, 12);
    expect(usageCostUsd(usage({ inputTokens: 10_000, cacheWriteTokens: 10_000 }), sonnet)).toBeCloseTo(0.0375, 12);
  });

  it('prices cache tokens at the input rate when the pricing has no rate for them', () => {
    const plain: ModelPricing = { inputUsdPerMillion: 2, outputUsdPerMillion: 8 };
    expect(usageCostUsd(usage({ inputTokens: 1_000, cacheReadTokens: 400, cacheWriteTokens: 100 }), plain)).toBeCloseTo(
      0.002,
      12,
    );
  });

  it('counts reasoning tokens once, as the output tokens they are part of', () => {
    expect(usageCostUsd(usage({ outputTokens: 1_000, reasoningTokens: 800 }), sonnet)).toBeCloseTo(0.015, 12);
  });
});

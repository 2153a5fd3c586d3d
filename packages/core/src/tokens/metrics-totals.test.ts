import type { ModelPricing, Usage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { contextUsage } from './context-usage.js';
import { MetricsTotals } from './metrics-totals.js';

const pricing: ModelPricing = { inputUsdPerMillion: 1, outputUsdPerMillion: 5 };
const usage = (inputTokens: number, outputTokens: number): Usage => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
});

describe('MetricsTotals', () => {
  it('reports the cost of spending at known prices', () => {
    const totals = new MetricsTotals();
    totals.spend(usage(1_000_000, 0), pricing);
    totals.spend(usage(0, 200_000), pricing);

    expect(totals.runMetrics().costUsd).toBeCloseTo(2, 10);
    expect(totals.runMetrics().usage).toEqual(usage(1_000_000, 200_000));
  });

  it('reports no cost once a model without a price spent tokens, and none before any spending', () => {
    const totals = new MetricsTotals();
    expect(totals.runMetrics()).not.toHaveProperty('costUsd');

    totals.spend(usage(100, 10), pricing);
    totals.spend(usage(100, 10), undefined);
    expect(totals.runMetrics()).not.toHaveProperty('costUsd');
  });

  it('adds a run to an agent’s totals, the run’s context becoming the latest', () => {
    const session = new MetricsTotals();
    for (const [calls, used] of [
      [2, 1_000],
      [3, 4_000],
    ] as const) {
      const run = new MetricsTotals();
      run.modelCalls = calls;
      run.toolCalls = 1;
      run.toolTimeMs = 7;
      run.runs = 1;
      run.context = contextUsage(used, 10_000);
      run.spend(usage(used, 10), pricing);
      session.add(run);
    }

    expect(session.agentMetrics()).toMatchObject({
      runs: 2,
      modelCalls: 5,
      toolCalls: 2,
      toolTimeMs: 14,
      usage: usage(5_000, 20),
      context: { usedTokens: 4_000, windowTokens: 10_000, fraction: 0.4 },
    });
    expect(session.agentMetrics().costUsd).toBeCloseTo((5_000 + 20 * 5) / 1e6, 12);
  });

  it('adds a resumed session’s saved tokens, whose cost is unknown', () => {
    const totals = new MetricsTotals();
    totals.addSavedUsage(usage(0, 0));
    totals.spend(usage(1_000, 0), pricing);
    expect(totals.runMetrics().costUsd).toBeCloseTo(0.001, 12);

    totals.addSavedUsage(usage(5_000, 300));
    expect(totals.runMetrics()).toMatchObject({ usage: usage(6_000, 300) });
    expect(totals.runMetrics()).not.toHaveProperty('costUsd');
  });

  it('starts again from saved figures, cost and all', () => {
    const saved = new MetricsTotals();
    saved.runs = 3;
    saved.spend(usage(1_000, 100), pricing);
    const resumed = MetricsTotals.from(saved.agentMetrics());
    resumed.spend(usage(1_000, 100), pricing);

    expect(resumed.agentMetrics()).toMatchObject({ runs: 3, usage: usage(2_000, 200) });
    expect(resumed.agentMetrics().costUsd).toBeCloseTo(0.003, 12);
    const unpriced = new MetricsTotals();
    unpriced.spend(usage(10, 1), undefined);
    expect(MetricsTotals.from(unpriced.agentMetrics()).agentMetrics()).not.toHaveProperty('costUsd');
  });
});

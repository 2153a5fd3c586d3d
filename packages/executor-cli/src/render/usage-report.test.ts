import { describe, expect, it } from 'vitest';
import { createStyle } from './terminal.js';
import type { UsageStats } from './usage-report.js';
import { formatUsageReport } from './usage-report.js';

const usage = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
});

describe('formatUsageReport', () => {
  it('lists tokens per model call, the total, tool calls and wall time', () => {
    const stats: UsageStats = {
      steps: [
        { turn: 1, step: 1, usage: usage(1200, 30) },
        { turn: 1, step: 2, usage: usage(1300, 12) },
      ],
      total: usage(2500, 42),
      turns: 1,
      toolCalls: 2,
      toolErrors: 1,
      agentMs: 1500,
      sessionMs: 65_000,
    };
    expect(formatUsageReport(stats, createStyle(false))).toBe(
      [
        'Tokens per model call',
        '  turn  step        input      output  cache read   reasoning',
        '  1     1           1,200          30           0           0',
        '  1     2           1,300          12           0           0',
        '  total             2,500          42           0           0',
        'Tool calls: 2 (1 failed)',
        'Wall time: 1.5 s working in 1 turn, 1 m 05 s session',
        '',
      ].join('\n'),
    );
  });

  it('marks the calls that answered an MCP server’s sampling request, and names the servers', () => {
    const stats: UsageStats = {
      steps: [
        { turn: 1, step: 1, usage: usage(1200, 30) },
        { turn: 1, step: 1, usage: usage(400, 50), sampling: 'tickets' },
        { turn: 1, step: 2, usage: usage(1300, 12) },
      ],
      total: usage(2900, 92),
      turns: 1,
      toolCalls: 1,
      toolErrors: 0,
      agentMs: 1500,
      sessionMs: 2000,
    };
    expect(formatUsageReport(stats, createStyle(false)).split('\n').slice(2, 7)).toEqual([
      '  1     1           1,200          30           0           0',
      '  1     1*            400          50           0           0',
      '  1     2           1,300          12           0           0',
      '  total             2,900          92           0           0',
      "  * a sampling request: the model answered tickets during the step's tool call",
    ]);
  });

  it('says how full the context is, the model calls and their time, compactions and the cost', () => {
    const stats: UsageStats = {
      steps: [{ turn: 1, step: 1, usage: usage(85_000, 1_000) }],
      total: usage(85_000, 1_000),
      turns: 1,
      toolCalls: 3,
      toolErrors: 0,
      agentMs: 9_000,
      sessionMs: 20_000,
      context: { usedTokens: 86_000, windowTokens: 200_000, fraction: 0.43 },
      metrics: { modelCalls: 4, modelTimeMs: 7_200, retries: 1, toolTimeMs: 1_800, compactions: 2, costUsd: 0.27 },
    };
    expect(formatUsageReport(stats, createStyle(false)).split('\n').slice(4)).toEqual([
      'Context: 86,000 of 200,000 tokens (43% of context)',
      'Model calls: 4, 1 retry, 7.2 s',
      'Tool calls: 3, 1.8 s',
      'Compactions: 2',
      'Cost: $0.2700',
      'Wall time: 9.0 s working in 1 turn, 20.0 s session',
      '',
    ]);
  });

  it('says the cost is not known when a model used has no price', () => {
    const text = formatUsageReport(
      {
        steps: [{ turn: 1, step: 1, usage: usage(10, 1) }],
        total: usage(10, 1),
        turns: 1,
        toolCalls: 0,
        toolErrors: 0,
        agentMs: 0,
        sessionMs: 0,
        metrics: { modelCalls: 1, modelTimeMs: 0, retries: 0, toolTimeMs: 0, compactions: 0 },
      },
      createStyle(false),
    );
    expect(text).toContain('\nCost: not known (a model used has no price in the model table)\n');
    expect(text).not.toContain('Compactions');
  });

  it('shows only the last calls and says how many are left out', () => {
    const steps = Array.from({ length: 5 }, (_, index) => ({ turn: 1, step: index + 1, usage: usage(1, 1) }));
    const text = formatUsageReport(
      { steps, total: usage(5, 5), turns: 1, toolCalls: 0, toolErrors: 0, agentMs: 0, sessionMs: 0 },
      createStyle(false),
      2,
    );
    expect(text).toContain('  … 3 earlier calls\n  1     4');
  });

  it('says when there were no model calls yet', () => {
    const text = formatUsageReport(
      { steps: [], total: usage(0, 0), turns: 0, toolCalls: 0, toolErrors: 0, agentMs: 0, sessionMs: 10 },
      createStyle(false),
    );
    expect(text.split('\n')[1]).toBe('  (no model calls yet)');
  });
});

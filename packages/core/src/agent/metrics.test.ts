import type { ModelPricing } from '@agentloop/spec';
import { ProviderError } from '@agentloop/spec';
import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEventMap } from '../events/index.js';
import { complete, scriptedAgent } from '../test-support/agent-harness.js';

const sonnet: ModelPricing = {
  inputUsdPerMillion: 3,
  outputUsdPerMillion: 15,
  cacheReadUsdPerMillion: 0.3,
  cacheWriteUsdPerMillion: 3.75,
};

/** A clock the test moves: tools and model calls take the time the test gives them. */
function testClock() {
  let now = 0;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('run metrics', () => {
  it('count model calls, tool calls and their time, errors, retries and wall time', async () => {
    const clock = testClock();
    const slow = defineTool({
      name: 'slow',
      description: 'Takes 250 ms.',
      parameters: z.object({ fail: z.boolean() }),
      execute: ({ fail }) => {
        clock.advance(250);
        if (fail) throw new Error('broken');
        return 'done';
      },
    });
    const retry = {
      type: 'retry' as const,
      attempt: 1,
      delayMs: 0,
      error: new ProviderError('Overloaded.', { code: 'overloaded', provider: 'scripted' }),
      discardOutput: false,
    };
    const { agent } = scriptedAgent(
      [
        () => {
          clock.advance(1_000);
          return {
            toolCalls: [
              { name: 'slow', arguments: { fail: false } },
              { name: 'slow', arguments: { fail: true } },
            ],
            chunks: [retry],
          };
        },
        () => {
          clock.advance(500);
          return complete('ok');
        },
      ],
      // One by one, so that each call's time is its own on the shared test clock.
      { tools: [slow], now: clock.now, parallelToolCalls: false },
    );
    const { metrics } = await agent.run('go');

    expect(metrics).toMatchObject({
      modelCalls: 2,
      modelTimeMs: 1_500,
      retries: 1,
      // The two slow calls and task_completion.
      toolCalls: 3,
      toolErrors: 1,
      toolTimeMs: 500,
      compactions: 0,
      wallTimeMs: 2_000,
      usage: { inputTokens: 20, outputTokens: 10 },
    });
    expect(metrics).not.toHaveProperty('costUsd');
  });

  it('carry the cost when the model has a price', async () => {
    const { agent } = scriptedAgent(
      [{ ...complete('ok'), usage: { inputTokens: 18_642, cacheReadTokens: 18_635, outputTokens: 100 } }],
      {},
      { capabilities: { pricing: sonnet } },
    );
    const { metrics } = await agent.run('go');

    expect(metrics.costUsd).toBeCloseTo((7 * 3 + 18_635 * 0.3 + 100 * 15) / 1e6, 12);
  });

  it('carry no cost once a model without a price was called', async () => {
    const { agent } = scriptedAgent(
      [{ toolCalls: [{ name: 'converse', arguments: { message: 'hi' } }] }],
      {},
      { capabilities: { pricing: sonnet } },
    );
    await agent.run('go');
    const { ScriptedProvider } = await import('../testing/index.js');
    agent.setProvider(new ScriptedProvider([complete('ok')]));
    const second = await agent.run('again');

    expect(second.metrics).not.toHaveProperty('costUsd');
    expect(agent.metrics).not.toHaveProperty('costUsd');
  });

  it('end with how full the context was', async () => {
    const { agent } = scriptedAgent([{ ...complete('ok'), usage: { inputTokens: 1_500, outputTokens: 500 } }], {
      contextWindow: 8_000,
    });
    const { metrics } = await agent.run('go');

    expect(metrics.context).toEqual({ usedTokens: 2_000, windowTokens: 8_000, fraction: 0.25 });
    expect(agent.contextUsage).toEqual({ usedTokens: 2_000, windowTokens: 8_000, fraction: 0.25 });
  });
});

describe('the usage event', () => {
  it('carries the context figures of each call and the session’s total', async () => {
    const { agent, events } = scriptedAgent(
      [
        {
          toolCalls: [{ name: 'converse', arguments: { message: 'hi' } }],
          usage: { inputTokens: 1_000, outputTokens: 40 },
        },
        { ...complete('ok'), usage: { inputTokens: 1_100, outputTokens: 60 } },
      ],
      {},
    );
    await agent.run('first');
    await agent.run('second');
    const usage = events.filter((event): event is AgentEventMap['usage'] => event.type === 'usage');

    expect(usage.map((event) => event.context)).toEqual([
      { usedTokens: 1_040, windowTokens: 200_000, fraction: 0.0052 },
      { usedTokens: 1_160, windowTokens: 200_000, fraction: 0.0058 },
    ]);
    expect(usage.map((event) => [event.total.inputTokens, event.sessionTotal.inputTokens])).toEqual([
      [1_000, 1_000],
      [1_100, 2_100],
    ]);
  });

  it('estimates how full the context is when the provider reports no usage', async () => {
    const { agent, events } = scriptedAgent([{ ...complete('ok'), usage: { inputTokens: 0, outputTokens: 0 } }]);
    await agent.run('x'.repeat(35_000));
    const context = events.find((event): event is AgentEventMap['usage'] => event.type === 'usage')?.context;

    // The input alone is 10,000 tokens at 3.5 characters a token, the system prompt and tools more.
    expect(context?.usedTokens).toBeGreaterThan(10_000);
    expect(context?.usedTokens).toBeLessThan(13_000);
  });
});

describe('agent.metrics', () => {
  it('adds up every run, and is up to date when loop-end is announced', async () => {
    const { agent } = scriptedAgent(
      [
        {
          toolCalls: [{ name: 'converse', arguments: { message: 'hi' } }],
          usage: { inputTokens: 1_000, outputTokens: 40 },
        },
        { ...complete('ok'), usage: { inputTokens: 1_100, outputTokens: 60 } },
      ],
      {},
      { capabilities: { pricing: sonnet } },
    );
    const seen: number[] = [];
    agent.on('loop-end', () => seen.push(agent.metrics.runs));
    await agent.run('first');
    await agent.run('second');

    expect(seen).toEqual([1, 2]);
    expect(agent.metrics).toMatchObject({
      runs: 2,
      modelCalls: 2,
      toolCalls: 2,
      usage: { inputTokens: 2_100, outputTokens: 100 },
      context: { usedTokens: 1_160 },
    });
    expect(agent.metrics.costUsd).toBeCloseTo((2_100 * 3 + 100 * 15) / 1e6, 12);
  });

  it('is all zero before any run', () => {
    const { agent } = scriptedAgent([]);

    expect(agent.metrics).toEqual({
      runs: 0,
      modelCalls: 0,
      modelTimeMs: 0,
      retries: 0,
      toolCalls: 0,
      toolErrors: 0,
      toolTimeMs: 0,
      compactions: 0,
      wallTimeMs: 0,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
    expect(agent.contextUsage).toBeUndefined();
  });
});

import { DefaultAgent, defineTool } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UsageTracker } from './usage-tracker.js';

describe('UsageTracker', () => {
  it("adds a sub-agent's tokens to the session's total, but not as steps of the session's agent", async () => {
    const child = new DefaultAgent(
      new ScriptedProvider([
        {
          toolCalls: [{ name: 'task_completion', arguments: { result: 'r' } }],
          usage: { inputTokens: 7, outputTokens: 1 },
        },
      ]),
    );
    const agent = new DefaultAgent(
      new ScriptedProvider([
        { toolCalls: [{ name: 'helper', arguments: { task: 't' } }], usage: { inputTokens: 10, outputTokens: 2 } },
        { toolCalls: [{ name: 'converse', arguments: { message: 'a' } }], usage: { inputTokens: 20, outputTokens: 3 } },
      ]),
      { tools: [child.asTool({ name: 'helper', description: 'Helps.' })] },
    );
    const tracker = new UsageTracker(agent);
    await agent.run('one');
    const stats = tracker.stats();
    expect(stats.steps.map((step) => step.usage.inputTokens)).toEqual([10, 20]);
    expect(stats.total).toMatchObject({ inputTokens: 37, outputTokens: 6 });
  });

  it('adds up tokens per call and per session, tool calls and failures, turns and time', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'nope', arguments: {} }], usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 } },
      { toolCalls: [{ name: 'converse', arguments: { message: 'a' } }], usage: { inputTokens: 20, outputTokens: 3 } },
      {
        toolCalls: [{ name: 'converse', arguments: { message: 'b' } }],
        usage: { inputTokens: 30, outputTokens: 4, reasoningTokens: 1 },
      },
    ]);
    let agentClock = 0;
    const agent = new DefaultAgent(provider, { now: () => (agentClock += 100) });
    let clock = 1000;
    const tracker = new UsageTracker(agent, () => clock);
    await agent.run('one');
    await agent.run('two');
    clock = 6000;
    const stats = tracker.stats();
    expect(stats.steps.map((step) => [step.turn, step.step, step.usage.inputTokens])).toEqual([
      [1, 1, 10],
      [1, 2, 20],
      [2, 1, 30],
    ]);
    expect(stats.total).toEqual({
      inputTokens: 60,
      outputTokens: 9,
      cacheReadTokens: 4,
      cacheWriteTokens: 0,
      reasoningTokens: 1,
    });
    // The converse calls end the runs; they are not counted as tool calls.
    expect(stats).toMatchObject({ turns: 2, toolCalls: 1, toolErrors: 1, sessionMs: 5000 });
    expect(stats.agentMs).toBeGreaterThan(0);
    // The agent's own figures: its three model calls, and how full the context is after the last one.
    expect(stats.metrics).toMatchObject({ modelCalls: 3, compactions: 0 });
    expect(stats.context).toEqual({ usedTokens: 34, windowTokens: 200_000, fraction: 34 / 200_000 });
  });

  it('counts the model call of a tool’s sampling request as a step, marked with the server that asked', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'summarise', arguments: {} }], usage: { inputTokens: 10, outputTokens: 2 } },
      { text: 'A summary.', usage: { inputTokens: 40, outputTokens: 8 } },
      { toolCalls: [{ name: 'converse', arguments: { message: 'a' } }], usage: { inputTokens: 20, outputTokens: 3 } },
    ]);
    const summarise = defineTool({
      name: 'summarise',
      description: 'Asks the model for a summary, as an MCP server does.',
      parameters: z.object({}),
      execute: async (_args, context) =>
        (await context.sample?.({ server: 'tickets', messages: [{ role: 'user', text: 'Sum up' }], maxTokens: 50 }))
          ?.text ?? '',
    });
    const agent = new DefaultAgent(provider, { tools: [summarise] });
    const tracker = new UsageTracker(agent);
    await agent.run('one');
    const stats = tracker.stats();
    expect(stats.steps.map((step) => [step.step, step.usage.inputTokens, step.sampling])).toEqual([
      [1, 10, undefined],
      [1, 40, 'tickets'],
      [2, 20, undefined],
    ]);
    expect(stats.total).toMatchObject({ inputTokens: 70, outputTokens: 13 });
    expect(stats.metrics).toMatchObject({ modelCalls: 3 });
  });

  it('stops counting when disposed', async () => {
    const agent = new DefaultAgent(
      new ScriptedProvider([{ toolCalls: [{ name: 'converse', arguments: { message: 'a' } }] }]),
    );
    const tracker = new UsageTracker(agent);
    tracker.dispose();
    await agent.run('one');
    expect(tracker.stats().turns).toBe(0);
  });
});

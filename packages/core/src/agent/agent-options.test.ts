import type { Compactor, TokenCounter } from '@agentloop/memory';
import { defineTool } from '@agentloop/tools';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { complete, scriptedAgent } from '../test-support/agent-harness.js';
import { ScriptedProvider } from '../testing/index.js';
import { DefaultAgent } from './default-agent.js';

// AgentOptions through a whole run: each option must reach what it sets, and its default must be the one
// the core README's options table documents.

/** A tool whose result is `length` characters of "x". */
const long = defineTool({
  name: 'long',
  description: 'returns a long text',
  parameters: z.object({ length: z.number() }),
  execute: ({ length }) => 'x'.repeat(length),
});

/** A tool that never settles, and records its signal. */
function stuckTool() {
  const signals: AbortSignal[] = [];
  const tool = defineTool({
    name: 'stuck',
    description: 'never settles',
    parameters: z.object({}),
    execute: (_args, context) => {
      signals.push(context.signal);
      return new Promise(() => {});
    },
  });
  return { tool, signals };
}

function resultOf(events: readonly { type: string }[], type: 'tool-result' | 'tool-result-error') {
  return events.find((event) => event.type === type) as { content: string; code?: string } | undefined;
}

describe('maxToolResultChars', () => {
  it('cuts a tool result at 100,000 characters by default', async () => {
    const { agent, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'long', arguments: { length: 100_005 } }] }, complete('ok')],
      { tools: [long] },
    );
    await agent.run('go');
    const content = resultOf(events, 'tool-result')?.content ?? '';
    expect(content).toBe(`${'x'.repeat(100_000)}\n… (cut: 5 more characters)`);
  });

  it('keeps a result of exactly 100,000 characters whole by default', async () => {
    const { agent, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'long', arguments: { length: 100_000 } }] }, complete('ok')],
      { tools: [long] },
    );
    await agent.run('go');
    expect(resultOf(events, 'tool-result')?.content).toHaveLength(100_000);
  });

  it('cuts at the length given, in the event and in what the model is sent', async () => {
    const { agent, events, provider } = scriptedAgent(
      [{ toolCalls: [{ name: 'long', arguments: { length: 25 } }] }, complete('ok')],
      { tools: [long], maxToolResultChars: 10 },
    );
    await agent.run('go');
    const cut = `${'x'.repeat(10)}\n… (cut: 15 more characters)`;
    expect(resultOf(events, 'tool-result')?.content).toBe(cut);
    expect(JSON.stringify(provider.requests[1]?.messages)).toContain(JSON.stringify(cut));
  });
});

describe('toolTimeoutMs', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops a tool call after 300,000 ms (5 minutes) by default', async () => {
    vi.useFakeTimers();
    const { tool, signals } = stuckTool();
    const { agent, events } = scriptedAgent([{ toolCalls: [{ name: 'stuck', arguments: {} }] }, complete('ok')], {
      tools: [tool],
    });
    const pending = agent.run('go');
    await vi.advanceTimersByTimeAsync(299_999);
    expect(signals[0]?.aborted).toBe(false);
    expect(resultOf(events, 'tool-result-error')).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).exit).toBe('task_completion');
    expect(signals[0]?.aborted).toBe(true);
    expect(resultOf(events, 'tool-result-error')).toMatchObject({
      code: 'timeout',
      content: expect.stringContaining('did not finish within 300 s'),
    });
  });

  it('stops a tool call after the time given', async () => {
    vi.useFakeTimers();
    const { tool, signals } = stuckTool();
    const { agent, events } = scriptedAgent([{ toolCalls: [{ name: 'stuck', arguments: {} }] }, complete('ok')], {
      tools: [tool],
      toolTimeoutMs: 1_500,
    });
    const pending = agent.run('go');
    await vi.advanceTimersByTimeAsync(1_499);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(resultOf(events, 'tool-result-error')?.code).toBe('timeout');
  });

  it('lets a tool that sets its own timeoutMs run for that long instead', async () => {
    vi.useFakeTimers();
    const { tool, signals } = stuckTool();
    const { agent } = scriptedAgent([{ toolCalls: [{ name: 'stuck', arguments: {} }] }, complete('ok')], {
      tools: [{ ...tool, timeoutMs: 5_000 }],
      toolTimeoutMs: 1_000,
    });
    const pending = agent.run('go');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(signals[0]?.aborted).toBe(true);
  });

  it('never stops a tool call with 0', async () => {
    vi.useFakeTimers();
    const { tool, signals } = stuckTool();
    const { agent } = scriptedAgent([{ toolCalls: [{ name: 'stuck', arguments: {} }] }, complete('ok')], {
      tools: [tool],
      toolTimeoutMs: 0,
    });
    const pending = agent.run('go');
    await vi.advanceTimersByTimeAsync(2 ** 31);
    expect(signals[0]?.aborted).toBe(false);
    agent.cancel();
    expect((await pending).exit).toBe('cancelled');
  });
});

describe('compaction', () => {
  /** A counter that finds every request `tokens` long. */
  const countingAs = (tokens: number): TokenCounter => ({
    recordUsage: () => undefined,
    countRequest: () => tokens,
    countMessages: () => 0,
    countText: () => 0,
  });
  /** A compactor that records that it was asked, and refuses. */
  const refusing = (asked: string[]): Compactor => ({
    compact: async (request) => {
      asked.push(request.reason);
      throw new Error('not in this test');
    },
  });

  it('compacts before a request past 80% of the context window by default, and not before one at 80%', async () => {
    const compactedAt = async (tokens: number) => {
      const asked: string[] = [];
      const { agent } = scriptedAgent([complete('ok')], {
        contextWindow: 1_000,
        tokenCounter: countingAs(tokens),
        compaction: { compactor: refusing(asked) },
      });
      await agent.run('go');
      return asked;
    };
    expect(await compactedAt(800)).toEqual([]);
    expect(await compactedAt(801)).toEqual(['threshold']);
  });
});

describe('sessionId and workspace', () => {
  it('gives tools a random UUID as the session id and process.cwd() as the workspace by default', async () => {
    const seen: { sessionId: string; workspace: string }[] = [];
    const where = defineTool({
      name: 'where',
      description: 'records its context',
      parameters: z.object({}),
      execute: (_args, context) => {
        seen.push({ sessionId: context.sessionId, workspace: context.workspace });
        return 'ok';
      },
    });
    const agent = new DefaultAgent(
      new ScriptedProvider([{ toolCalls: [{ name: 'where', arguments: {} }] }, complete('ok')]),
      {
        tools: [where],
      },
    );
    await agent.run('go');
    expect(seen).toEqual([{ sessionId: agent.sessionId, workspace: process.cwd() }]);
    expect(agent.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

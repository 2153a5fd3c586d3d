import { ConversationMemory } from '@agentloop/memory';
import type { LLMProviderV1, Message, ModelChunk } from '@agentloop/spec';
import { defineTool } from '@agentloop/tools';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { complete, echoTool, scriptedAgent } from '../test-support/agent-harness.js';
import { DefaultAgent } from './default-agent.js';

// Regressions of a review that ran the loop under faults and bad input: each case failed before.

/** Every tool call in `messages` is answered by one result in the tool message right after it. */
function pairedCalls(messages: readonly Message[]): boolean {
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    const calls = message.content.filter((part) => part.type === 'tool-call').map((part) => part.toolCallId);
    if (calls.length === 0) continue;
    const next = messages[index + 1];
    const results = next?.role === 'tool' ? next.content.map((part) => part.toolCallId) : [];
    if (calls.join() !== results.join()) return false;
  }
  return true;
}

/** A provider that streams these chunks once per call, as a third party's provider might. */
function chunkProvider(...responses: ModelChunk[][]): LLMProviderV1 & { requests: number } {
  const provider = {
    specificationVersion: 'v1' as const,
    id: 'third-party',
    requests: 0,
    capabilities: {
      modelId: 'm',
      nativeTools: true,
      parallelToolCalls: true,
      stopSequences: true,
      reasoning: false,
      contextWindow: 100_000,
    },
    async *stream() {
      const chunks = responses[provider.requests++] ?? [];
      for (const chunk of chunks) yield chunk;
    },
  };
  return provider;
}

describe('a tool call whose arguments did not complete never runs', () => {
  const runCommand = (ran: string[]) =>
    defineTool({
      name: 'run_command',
      description: 'Runs a command',
      parameters: z.object({ command: z.string() }),
      execute: ({ command }) => {
        ran.push(command);
        return 'ran';
      },
    });

  it('drops a response whose stream ended without a finish chunk and ends the run with stream_broken', async () => {
    const ran: string[] = [];
    const provider = chunkProvider([
      { type: 'tool-call-start', toolCallId: 'c1', toolName: 'run_command' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'run_command', input: '{"command": "rm -rf build && make"}' },
    ]);
    const agent = new DefaultAgent(provider, { tools: [runCommand(ran)] });
    const result = await agent.run('release');
    expect(ran).toEqual([]);
    expect([result.exit, result.error?.code]).toEqual(['error', 'stream_broken']);
    expect(agent.memory.messages().map((message) => message.role)).toEqual(['user']);
  });

  it('answers a call cut inside a string on a normally finished stream with truncated_arguments', async () => {
    const ran: string[] = [];
    const { agent, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'run_command', arguments: '{"command": "rm -rf build && make' }] }, complete('ok')],
      { tools: [runCommand(ran)] },
    );
    const result = await agent.run('release');
    expect(ran).toEqual([]);
    expect(result.exit).toBe('task_completion');
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({
      name: 'run_command',
      code: 'truncated_arguments',
      content: expect.stringContaining('cut off before they were complete'),
    });
  });
});

describe('hostile thrown values never orphan a call', () => {
  it.each([
    ['an object without a prototype', () => Object.create(null)],
    [
      'an object whose toString throws',
      () => ({
        toString() {
          throw new Error('no');
        },
      }),
    ],
  ])('a tool that throws %s gets an error result and the run goes on', async (_name, make) => {
    const hostile = defineTool({
      name: 'hostile',
      description: 'throws',
      parameters: z.object({}),
      execute: () => {
        throw make();
      },
    });
    const { agent, provider, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'hostile', arguments: {} }] }, complete('ok')],
      { tools: [hostile] },
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({ code: 'tool_failed' });
    expect(pairedCalls(provider.requests[1]?.messages ?? [])).toBe(true);
  });

  it('answers the open calls when the run ends with an error after the model called tools', async () => {
    const memory = new ConversationMemory();
    const append = memory.append.bind(memory);
    let failed = false;
    // The memory refuses the tool results once; the run fails, and the calls still get their results.
    memory.append = (...messages: Message[]) => {
      if (!failed && messages.some((message) => message.role === 'tool')) {
        failed = true;
        throw new Error('disk full');
      }
      append(...messages);
    };
    const { agent } = scriptedAgent([{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }], {
      tools: [echoTool],
      memory,
    });
    const result = await agent.run('go');
    expect([result.exit, result.error?.message]).toEqual(['error', 'disk full']);
    expect(pairedCalls(memory.messages())).toBe(true);
    expect(memory.messages().at(-1)).toMatchObject({
      role: 'tool',
      content: [{ isError: true, content: expect.stringContaining('the turn ended with an error') }],
    });
  });
});

describe('deep arguments cannot brick a session', () => {
  it('refuses arguments nested 10,000 deep before they are stored, and later requests still serialise', async () => {
    const deep = `{"text": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const { agent, provider, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'echo', arguments: deep }] }, complete('ok')],
      { tools: [echoTool] },
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({
      code: 'invalid_arguments',
      content: expect.stringContaining('nest 10001 levels deep'),
    });
    expect(() => JSON.stringify(provider.requests[1]?.messages)).not.toThrow();
    expect(JSON.stringify(provider.requests[1]?.messages).length).toBeLessThan(2_000);
  });
});

describe('the history is checked before a request leaves', () => {
  it('reports a history with an orphaned call as invalid_history and sends nothing', async () => {
    const memory = new ConversationMemory([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'echo', arguments: {} }] },
    ]);
    const { agent, provider } = scriptedAgent([complete('never')], { tools: [echoTool], memory });
    const result = await agent.run('go on');
    expect([result.exit, result.error?.code]).toEqual(['error', 'invalid_history']);
    expect(result.error?.message).toContain('tool call "c1" (echo) has no result before message 3 (user)');
    expect(provider.requests).toHaveLength(0);
  });

  it('reports a message that cannot be serialised', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const memory = new ConversationMemory();
    memory.append(
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'echo', arguments: cyclic }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'echo', content: 'x', isError: false }],
      },
    );
    const { agent, provider } = scriptedAgent([complete('never')], { memory });
    const result = await agent.run('go on');
    expect(result.error?.code).toBe('invalid_history');
    expect(result.error?.message).toContain('message 1 (assistant) cannot be serialised');
    expect(provider.requests).toHaveLength(0);
  });
  it('checks again from the start a history rewritten in front of its last message', async () => {
    const memory = new ConversationMemory();
    const { agent, provider } = scriptedAgent([complete('first'), complete('never')], { memory });
    expect((await agent.run('one')).exit).toBe('task_completion');
    // A compacting store that replaces its older turns keeps the length and the last message the same.
    const messages = memory.messages() as Message[];
    messages[0] = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'lost', toolName: 'echo', arguments: {} }],
    };
    const result = await agent.run('two');
    expect(result.error?.code).toBe('invalid_history');
    expect(result.error?.message).toContain('tool call "lost" (echo) has no result before message 2');
    expect(provider.requests).toHaveLength(1);
  });
});

describe('a tool that never settles', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('times out with an error result, and the run goes on', async () => {
    vi.useFakeTimers();
    let stopped: AbortSignal | undefined;
    const stuck = defineTool({
      name: 'stuck',
      description: 'never settles',
      parameters: z.object({}),
      execute: (_args, context) => {
        stopped = context.signal;
        return new Promise(() => {});
      },
    });
    const { agent, events } = scriptedAgent([{ toolCalls: [{ name: 'stuck', arguments: {} }] }, complete('ok')], {
      tools: [stuck],
      toolTimeoutMs: 30_000,
    });
    const pending = agent.run('go');
    await vi.advanceTimersByTimeAsync(30_000);
    const result = await pending;
    expect(result.exit).toBe('task_completion');
    expect(stopped?.aborted).toBe(true);
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({
      name: 'stuck',
      code: 'timeout',
    });
  });
});

describe('no listener-leak warnings for what is no leak', () => {
  async function warningsDuring(work: () => Promise<unknown>): Promise<string[]> {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      await work();
      // process.emitWarning reports on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    return warnings;
  }

  it('twelve runs sharing one AbortSignal', async () => {
    const shared = new AbortController().signal;
    const warnings = await warningsDuring(() =>
      Promise.all(
        Array.from({ length: 12 }, () => {
          const { agent } = scriptedAgent([{ hang: true }]);
          const run = agent.run('wait', { signal: shared });
          return Promise.resolve().then(() => {
            agent.cancel();
            return run;
          });
        }),
      ),
    );
    expect(warnings).toEqual([]);
  });

  it('twelve parallel tool calls', async () => {
    const calls = Array.from({ length: 12 }, (_, index) => ({ name: 'echo', arguments: { text: `${index}` } }));
    const { agent, events } = scriptedAgent([{ toolCalls: calls }, complete('ok')], { tools: [echoTool] });
    const warnings = await warningsDuring(() => agent.run('go'));
    expect(warnings).toEqual([]);
    expect(events.filter((event) => event.type === 'tool-result' && event.name === 'echo')).toHaveLength(12);
  });
});

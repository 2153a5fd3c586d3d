import { ConversationMemory } from '@agentloop/memory';
import type { LLMProviderV1 } from '@agentloop/spec';
import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createContainer, resolveAgent, TOKENS } from '../di/index.js';
import { complete, echoTool, scriptedAgent } from '../test-support/agent-harness.js';
import { ScriptedProvider } from '../testing/index.js';
import { DefaultAgent } from './default-agent.js';

function everyCallHasOneResult(
  messages: readonly { content: readonly { type: string; toolCallId?: string }[] }[],
): boolean {
  const parts = messages.flatMap((message) => message.content);
  const calls = parts.filter((part) => part.type === 'tool-call').map((part) => part.toolCallId);
  const results = parts.filter((part) => part.type === 'tool-result').map((part) => part.toolCallId);
  return (
    calls.length === results.length && calls.every((id) => results.includes(id)) && new Set(calls).size === calls.length
  );
}

describe('loop edge cases', () => {
  it('gives a call whose schema throws while validating an error result and keeps the history valid', async () => {
    const picky = defineTool({
      name: 'picky',
      description: 'throws in its schema',
      parameters: z.object({
        n: z.string().transform((value) => {
          if (value === 'bad') throw new Error('transform blew up');
          return value;
        }),
      }),
      execute: ({ n }) => n,
    });
    const { agent, provider, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'picky', arguments: { n: 'bad' } }] }, complete('ok')],
      { tools: [picky] },
    );
    expect((await agent.run('go')).exit).toBe('task_completion');
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({
      code: 'tool_failed',
      content: expect.stringContaining('transform blew up'),
    });
    expect(everyCallHasOneResult(provider.requests[1]?.messages ?? [])).toBe(true);
  });

  it('ends with a stream_broken error when the provider ends without output or finish', async () => {
    // Written against the first contract, as a third party's provider may still be.
    const silent: LLMProviderV1 = {
      specificationVersion: 'v1' as const,
      id: 'silent',
      capabilities: new ScriptedProvider([]).capabilities,
      async *stream() {},
    };
    const agent = new DefaultAgent(silent);
    const result = await agent.run('go');
    expect(result.exit).toBe('error');
    expect(result.error?.code).toBe('stream_broken');
    expect(agent.memory.messages().map((message) => message.role)).toEqual(['user']);
  });

  it('never stores an empty assistant message for an empty answer', async () => {
    const { agent, provider } = scriptedAgent([{}, complete('ok')]);
    await agent.run('go');
    const roles = provider.requests[1]?.messages.map((message) => message.role);
    expect(roles).toEqual(['user', 'user']);
    expect(provider.requests[1]?.messages.every((message) => message.content.length > 0)).toBe(true);
  });

  it('makes duplicate tool-call ids unique', async () => {
    const { agent, provider, events } = scriptedAgent(
      [
        {
          toolCalls: [
            { name: 'echo', arguments: { text: 'a' }, id: 'dup' },
            { name: 'echo', arguments: { text: 'b' }, id: 'dup' },
          ],
        },
        complete('ok'),
      ],
      { tools: [echoTool] },
    );
    await agent.run('go');
    expect(
      events
        .filter((event) => event.type === 'tool-result')
        .map((event) => (event as { toolCallId: string }).toolCallId)
        .slice(0, 2),
    ).toEqual(['dup', 'dup_2']);
    expect(everyCallHasOneResult(provider.requests[1]?.messages ?? [])).toBe(true);
  });

  it('uses a provider switched during a run from the next model call on', async () => {
    const second = new ScriptedProvider([complete('from the second provider')]);
    let agent: DefaultAgent | undefined;
    const switcher = defineTool({
      name: 'switch',
      description: 'switches',
      parameters: z.object({}),
      execute: () => void agent?.setProvider(second),
    });
    const harness = scriptedAgent([{ toolCalls: [{ name: 'switch', arguments: {} }] }], { tools: [switcher] });
    agent = harness.agent;
    const result = await agent.run('go');
    expect(result.payload).toEqual({ result: 'from the second provider' });
    expect(harness.provider.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);
  });

  it('lets a loop-end listener start the next run', async () => {
    const { agent } = scriptedAgent([
      { toolCalls: [{ name: 'ask_question', arguments: { question: 'Name?' } }] },
      complete('Hi Ada'),
    ]);
    const next = new Promise<string>((resolve, reject) => {
      agent.once('loop-end', (event) => {
        if (event.result.exit !== 'ask_question') return;
        expect(agent.running).toBe(false);
        agent.run('Ada').then((result) => resolve(result.exit), reject);
      });
    });
    await agent.run('greet me');
    expect(await next).toBe('task_completion');
  });

  it('ends with exit error and loop-end when the memory throws', async () => {
    class FullMemory extends ConversationMemory {
      override append(): void {
        throw new Error('disk full');
      }
    }
    const { agent, types } = scriptedAgent([complete('never')], { memory: new FullMemory() });
    const result = await agent.run('go');
    expect(result.exit).toBe('error');
    expect(result.error?.message).toBe('disk full');
    expect(types().at(-1)).toBe('loop-end');
  });

  it('reports no tool progress after the call ended', async () => {
    let report: ((message: string) => void) | undefined;
    const chatty = defineTool({
      name: 'chatty',
      description: 'keeps a progress callback',
      parameters: z.object({}),
      execute: (_args, context) => {
        report = (message) => context.reportProgress({ message });
        report('working');
        return 'done';
      },
    });
    const { agent, types } = scriptedAgent([{ toolCalls: [{ name: 'chatty', arguments: {} }] }, complete('ok')], {
      tools: [chatty],
    });
    await agent.run('go');
    report?.('late');
    expect(types().filter((type) => type === 'tool-progress')).toHaveLength(1);
    expect(types().at(-1)).toBe('loop-end');
  });

  it("delivers input sent at the end of a run before the next run's input", async () => {
    const { agent, provider } = scriptedAgent([complete('one'), complete('two')]);
    agent.once('task-complete', () => agent.send('also this'));
    await agent.run('first');
    await agent.run('second');
    const texts = provider.requests[1]?.messages
      .filter((message) => message.role === 'user')
      .map((message) => (message.content[0] as { text: string }).text);
    expect(texts).toEqual(['first', 'also this', 'second']);
  });

  it('does not call the model for a run cancelled before it started', async () => {
    const { agent, provider } = scriptedAgent([complete('never')]);
    const result = await agent.run('go', { signal: AbortSignal.abort() });
    expect(result.exit).toBe('cancelled');
    expect(provider.requests).toHaveLength(0);
  });

  it('returns promptly on cancel even when the provider ignores its signal', async () => {
    const deaf: LLMProviderV1 = {
      specificationVersion: 'v1' as const,
      id: 'deaf',
      capabilities: new ScriptedProvider([]).capabilities,
      async *stream() {
        yield { type: 'text-delta', text: 'thinking…' };
        await new Promise(() => {});
      },
    };
    const agent = new DefaultAgent(deaf);
    agent.once('message-content', () => agent.cancel());
    expect((await agent.run('go')).exit).toBe('cancelled');
  });

  it('closes an open message before a retry that discards it', async () => {
    const { agent, types } = scriptedAgent([
      {
        text: 'Partial',
        chunks: [
          {
            type: 'retry',
            attempt: 1,
            delayMs: 0,
            error: Object.assign(new Error('reset'), { code: 'network' }) as never,
            discardOutput: true,
          },
          { type: 'tool-call', toolCallId: 't', toolName: 'converse', input: '{"message":"hi"}' },
        ],
      },
    ]);
    await agent.run('go');
    const sequence = types();
    expect(sequence.slice(sequence.indexOf('message-start'), sequence.indexOf('retry') + 1)).toEqual([
      'message-start',
      'message-content',
      'message-end',
      'retry',
    ]);
  });

  it('does not leave a reminder behind after the last iteration', async () => {
    const { agent } = scriptedAgent([{ text: 'no tool' }], { maxIterations: 1, onMaxIterations: 'stop' });
    await agent.run('go');
    expect(agent.memory.messages().map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('rejects empty input and an invalid maxIterations with clear errors', async () => {
    const { agent } = scriptedAgent([]);
    await expect(agent.run('   ')).rejects.toMatchObject({ code: 'empty_input' });
    expect(() => new DefaultAgent(new ScriptedProvider([]), { maxIterations: 0 })).toThrow(
      'maxIterations must be a whole number of at least 1, got 0.',
    );
  });

  it('resolves the same agent setup twice from one container', async () => {
    const container = await createContainer({
      provider: new ScriptedProvider([]),
      plugins: [{ name: 'echo', register: (c) => c.register(TOKENS.Tool, () => echoTool) }],
    });
    resolveAgent(container);
    expect(resolveAgent(container).tools.has('echo')).toBe(true);
  });
});

import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { complete, echoTool, scriptedAgent } from '../test-support/agent-harness.js';

function everyCallHasAResult(
  messages: readonly { role: string; content: readonly { type: string; toolCallId?: string }[] }[],
): boolean {
  const calls = messages.flatMap((message) =>
    message.content.filter((part) => part.type === 'tool-call').map((part) => part.toolCallId),
  );
  const results = new Set(
    messages.flatMap((message) =>
      message.content.filter((part) => part.type === 'tool-result').map((part) => part.toolCallId),
    ),
  );
  return calls.every((id) => results.has(id));
}

describe('cancelling a run', () => {
  it('ends with cancelled when cancelled during the model stream, keeping what was said', async () => {
    const { agent, provider, types } = scriptedAgent([{ text: 'Working on it', hang: true }, complete('ok')]);
    agent.once('message-content', () => queueMicrotask(() => agent.cancel()));
    const result = await agent.run('go');
    expect(result.exit).toBe('cancelled');
    expect(result.error?.code).toBe('cancelled');
    expect(types().at(-1)).toBe('loop-end');
    expect(agent.running).toBe(false);

    const next = await agent.run('continue');
    expect(next.exit).toBe('task_completion');
    const sent = provider.requests[1]?.messages ?? [];
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    // Only what streamed before the cancel: the provider is not waited for after it.
    expect(sent[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Working ' }] });
  });

  it('gives calls streamed before a cancel a result, so the next run sends a valid history', async () => {
    const { agent, provider } = scriptedAgent(
      [{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }], hang: true }, complete('ok')],
      { tools: [echoTool] },
    );
    agent.once('tool-call-start', () => setTimeout(() => agent.cancel(), 0));
    expect((await agent.run('go')).exit).toBe('cancelled');
    await agent.run('again');
    const sent = provider.requests[1]?.messages ?? [];
    expect(everyCallHasAResult(sent)).toBe(true);
    expect(sent[2]).toMatchObject({
      role: 'tool',
      content: [{ toolCallId: 'call_1_1', isError: true, content: 'Not run: the user cancelled the turn.' }],
    });
  });

  it('ends with cancelled when cancelled during a tool, aborting the tool through its signal', async () => {
    let sawAbort = false;
    const slow = defineTool({
      name: 'slow',
      description: 'waits until aborted',
      parameters: z.object({}),
      execute: (_args, context) =>
        new Promise((_resolve, reject) => {
          context.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(new Error('aborted'));
          });
        }),
    });
    const { agent, provider, events } = scriptedAgent(
      [
        {
          toolCalls: [
            { name: 'slow', arguments: {} },
            { name: 'echo', arguments: { text: 'b' } },
          ],
        },
        complete('ok'),
      ],
      { tools: [slow, echoTool] },
    );
    agent.once('tool-call', () => setTimeout(() => agent.cancel(), 0));
    const result = await agent.run('go');
    expect(result.exit).toBe('cancelled');
    expect(sawAbort).toBe(true);
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({
      name: 'slow',
      code: 'cancelled',
    });

    await agent.run('again');
    const sent = provider.requests[1]?.messages ?? [];
    expect(everyCallHasAResult(sent)).toBe(true);
    expect(sent[2]).toMatchObject({
      role: 'tool',
      content: [
        { toolName: 'slow', isError: true },
        { toolName: 'echo', content: 'echo: b' },
      ],
    });
  });

  it('does not wait for a tool that ignores its signal', async () => {
    const stubborn = defineTool({
      name: 'stubborn',
      description: 'never ends',
      parameters: z.object({}),
      execute: () => new Promise(() => {}),
    });
    const { agent } = scriptedAgent([{ toolCalls: [{ name: 'stubborn', arguments: {} }] }], { tools: [stubborn] });
    agent.once('tool-call', () => setTimeout(() => agent.cancel(), 0));
    expect((await agent.run('go')).exit).toBe('cancelled');
  });

  it('cancels through the run signal', async () => {
    const { agent } = scriptedAgent([{ text: 'x', hang: true }]);
    const controller = new AbortController();
    agent.once('message-content', () => controller.abort());
    expect((await agent.run('go', { signal: controller.signal })).exit).toBe('cancelled');
  });
});

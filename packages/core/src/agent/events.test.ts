import { describe, expect, it, vi } from 'vitest';
import { complete, echoTool, scriptedAgent } from '../test-support/agent-harness.js';

describe('agent events', () => {
  it('emits the full event sequence of a run in order', async () => {
    const { agent, types } = scriptedAgent(
      [
        { thinking: 'Plan.', text: 'Echoing.', toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] },
        complete('done'),
      ],
      { tools: [echoTool] },
      { chunkSize: 100 },
    );
    await agent.run('go');
    expect(types()).toEqual([
      'loop-start',
      'loop-iteration',
      'thinking-start',
      'thinking-content',
      'thinking-end',
      'message-start',
      'message-content',
      'message-end',
      'tool-call-start',
      'usage',
      'tool-call',
      'tool-result',
      'loop-iteration',
      'tool-call-start',
      'usage',
      'tool-call',
      'tool-result',
      'task-complete',
      'loop-end',
    ]);
  });

  it('streams text in the provider chunks and closes with the whole text', async () => {
    const { agent, events } = scriptedAgent(
      [{ text: 'Hello world!', toolCalls: [{ name: 'converse', arguments: { message: 'hi' } }] }],
      {},
      { chunkSize: 5 },
    );
    await agent.run('go');
    expect(
      events.filter((event) => event.type === 'message-content').map((event) => ('text' in event ? event.text : '')),
    ).toEqual(['Hello', ' worl', 'd!']);
    expect(events.find((event) => event.type === 'message-end')).toEqual({
      type: 'message-end',
      iteration: 1,
      text: 'Hello world!',
    });
  });

  it('carries the AgentResult on loop-end', async () => {
    const { agent, events } = scriptedAgent([complete('done')]);
    const result = await agent.run('go');
    expect(events.at(-1)).toEqual({ type: 'loop-end', runId: 'run-1', result });
  });

  it('keeps running when a listener throws, and reports it as listener-error', async () => {
    const { agent, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }, complete('ok')],
      { tools: [echoTool] },
    );
    const after = vi.fn();
    agent.on('tool-call', () => {
      throw new Error('listener bug');
    });
    agent.on('tool-call', after);
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    expect(after).toHaveBeenCalledTimes(2);
    const reported = events.filter((event) => event.type === 'listener-error');
    expect(reported).toHaveLength(2);
    expect(reported[0]).toMatchObject({ event: 'tool-call', error: new Error('listener bug') });
  });

  it('stops calling a listener after off, and calls a once listener once', async () => {
    const { agent } = scriptedAgent(
      [
        { toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] },
        { toolCalls: [{ name: 'echo', arguments: { text: 'b' } }] },
        complete('ok'),
      ],
      { tools: [echoTool] },
    );
    const removed = vi.fn();
    const once = vi.fn();
    agent.on('tool-call', removed);
    agent.off('tool-call', removed);
    agent.once('tool-call', once);
    await agent.run('go');
    expect(removed).not.toHaveBeenCalled();
    expect(once).toHaveBeenCalledTimes(1);
  });

  it('yields the same events from stream() as listeners get, ending with loop-end', async () => {
    const { agent, types } = scriptedAgent(
      [{ text: 'hi', toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }, complete('ok')],
      { tools: [echoTool] },
    );
    const streamed: string[] = [];
    for await (const event of agent.stream('go')) streamed.push(event.type);
    expect(streamed).toEqual(types());
    expect(streamed.at(-1)).toBe('loop-end');
  });

  it('cancels the run when a stream consumer stops early', async () => {
    const { agent } = scriptedAgent([{ text: 'x', hang: true }]);
    const ended = new Promise((resolve) => agent.once('loop-end', (event) => resolve(event.result.exit)));
    for await (const event of agent.stream('go')) if (event.type === 'message-content') break;
    expect(await ended).toBe('cancelled');
    expect(agent.running).toBe(false);
  });

  it('announces a provider retry and drops the discarded output', async () => {
    const { agent, events, provider } = scriptedAgent(
      [
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
            { type: 'text-delta', text: 'Whole answer.' },
            { type: 'tool-call', toolCallId: 't1', toolName: 'converse', input: '{"message":"hi"}' },
          ],
        },
      ],
      {},
      { chunkSize: 100 },
    );
    await agent.run('go');
    expect(events.find((event) => event.type === 'retry')).toMatchObject({
      attempt: 1,
      discardOutput: true,
      iteration: 1,
    });
    const assistant = (await Promise.resolve(agent.memory.messages()[1])) as { content: unknown[] };
    expect(assistant.content).toEqual([
      { type: 'text', text: 'Whole answer.' },
      { type: 'tool-call', toolCallId: 't1', toolName: 'converse', arguments: { message: 'hi' } },
    ]);
    expect(provider.requests).toHaveLength(1);
  });
});

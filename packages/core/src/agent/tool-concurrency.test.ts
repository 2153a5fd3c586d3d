import type { ToolResultPart } from '@agentloop/spec';
import { findHistoryProblem } from '@agentloop/spec';
import type { Tool } from '@agentloop/tools';
import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent } from '../events/index.js';
import { complete, scriptedAgent } from '../test-support/agent-harness.js';
import { ScriptedProvider } from '../testing/index.js';
import { DefaultAgent } from './default-agent.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Tools that record how many of their calls run at once, each call taking a turn of the event loop. */
function trackedTools(names: string[], sequential: string[] = []) {
  const running = new Map<string, number>();
  const most = new Map<string, number>();
  let total = 0;
  let mostTotal = 0;
  const tools: Tool[] = names.map((name) =>
    defineTool({
      name,
      description: `The ${name} tool.`,
      parameters: z.object({ n: z.number() }),
      sequential: sequential.includes(name),
      execute: async ({ n }) => {
        running.set(name, (running.get(name) ?? 0) + 1);
        most.set(name, Math.max(most.get(name) ?? 0, running.get(name) ?? 0));
        mostTotal = Math.max(mostTotal, ++total);
        await nextTurn();
        running.set(name, (running.get(name) ?? 0) - 1);
        total--;
        return `${name} ${n}`;
      },
    }),
  );
  return { tools, mostRunning: (name?: string) => (name === undefined ? mostTotal : (most.get(name) ?? 0)) };
}

const calls = (name: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => ({ name, arguments: { n: from + index } }));

function toolResults(messages: readonly { role: string; content: readonly unknown[] }[]): string[] {
  const message = messages.find((candidate) => candidate.role === 'tool');
  return ((message?.content ?? []) as ToolResultPart[]).map((part) => part.content);
}

function toolEvents(events: AgentEvent[]): string[] {
  return events.flatMap((event) =>
    event.type === 'tool-call' || event.type === 'tool-result' ? [`${event.type} ${event.toolCallId}`] : [],
  );
}

describe('tool concurrency', () => {
  it('runs at most 4 calls of a response at once by default, and keeps the results in call order', async () => {
    const { tools, mostRunning } = trackedTools(['work']);
    const { agent } = scriptedAgent([{ toolCalls: calls('work', 6) }, complete('done')], { tools });
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    expect(mostRunning()).toBe(4);
    expect(toolResults(result.messages)).toEqual(['work 0', 'work 1', 'work 2', 'work 3', 'work 4', 'work 5']);
  });

  it('takes another maxParallelTools', async () => {
    const { tools, mostRunning } = trackedTools(['work']);
    const { agent } = scriptedAgent([{ toolCalls: calls('work', 5) }, complete('done')], {
      tools,
      maxParallelTools: 2,
    });
    await agent.run('go');
    expect(mostRunning()).toBe(2);
  });

  it('with parallelToolCalls false, asks for one call per response and runs the calls one by one, in order', async () => {
    const { tools, mostRunning } = trackedTools(['work']);
    const { agent, provider, events } = scriptedAgent(
      [{ toolCalls: calls('work', 3).map((call, index) => ({ ...call, id: `c${index}` })) }, complete('done')],
      { tools, parallelToolCalls: false },
    );
    const result = await agent.run('go');
    expect(provider.requests.map((request) => request.parallelToolCalls)).toEqual([false, false]);
    expect(mostRunning()).toBe(1);
    expect(toolEvents(events).slice(0, 6)).toEqual([
      'tool-call c0',
      'tool-result c0',
      'tool-call c1',
      'tool-result c1',
      'tool-call c2',
      'tool-result c2',
    ]);
    expect(toolResults(result.messages)).toEqual(['work 0', 'work 1', 'work 2']);
  });

  it("follows the model's capabilities when parallelToolCalls is not set, and the option over them", async () => {
    const script = () => [{ toolCalls: calls('work', 3) }, complete('done')];
    const single = trackedTools(['work']);
    const serial = new ScriptedProvider(script(), { capabilities: { parallelToolCalls: false } });
    await new DefaultAgent(serial, { tools: single.tools }).run('go');
    expect(serial.requests.map((request) => request.parallelToolCalls)).toEqual([false, false]);
    expect(single.mostRunning()).toBe(1);

    const several = trackedTools(['work']);
    const overridden = new ScriptedProvider(script(), { capabilities: { parallelToolCalls: false } });
    await new DefaultAgent(overridden, { tools: several.tools, parallelToolCalls: true }).run('go');
    expect(overridden.requests[0]).not.toHaveProperty('parallelToolCalls');
    expect(several.mostRunning()).toBe(3);
  });

  it('leaves parallelToolCalls out of the request unless it is turned off, and out of XML requests', async () => {
    const { agent, provider } = scriptedAgent([complete('done')]);
    await agent.run('go');
    expect(provider.requests[0]).not.toHaveProperty('parallelToolCalls');

    const xml = new ScriptedProvider(
      [{ text: '<tool>{"server_name":"local","tool_name":"task_completion","arguments":{"result":"ok"}}</tool>' }],
      { capabilities: { nativeTools: false } },
    );
    await new DefaultAgent(xml, { parallelToolCalls: false }).run('go');
    expect(xml.requests[0]).not.toHaveProperty('parallelToolCalls');
  });

  it('never overlaps the calls of a sequential tool, and runs other tools beside them', async () => {
    const { tools, mostRunning } = trackedTools(['browser', 'search'], ['browser']);
    const { agent, events } = scriptedAgent(
      [
        {
          toolCalls: [
            { id: 'b0', name: 'browser', arguments: { n: 0 } },
            { id: 'b1', name: 'browser', arguments: { n: 1 } },
            { id: 's0', name: 'search', arguments: { n: 0 } },
            { id: 'b2', name: 'browser', arguments: { n: 2 } },
          ],
        },
        complete('done'),
      ],
      { tools },
    );
    const result = await agent.run('go');
    expect(mostRunning('browser')).toBe(1);
    expect(mostRunning()).toBe(2);
    // The search call does not wait for the browser's queue; the browser's calls keep the model's order.
    const firstStep = events.filter((event) => !('iteration' in event) || event.iteration === 1);
    expect(toolEvents(firstStep).filter((event) => event.startsWith('tool-call'))).toEqual([
      'tool-call b0',
      'tool-call s0',
      'tool-call b1',
      'tool-call b2',
    ]);
    expect(toolResults(result.messages)).toEqual(['browser 0', 'browser 1', 'search 0', 'browser 2']);
  });

  it('answers the calls still waiting when the run is cancelled, without starting them', async () => {
    let started = 0;
    const hang = defineTool({
      name: 'hang',
      description: 'Waits for the cancel.',
      parameters: z.object({ n: z.number() }),
      execute: (_args, context) =>
        new Promise((_resolve, reject) => {
          started++;
          context.signal.addEventListener('abort', () => reject(new Error('stopped')));
        }),
    });
    const { agent, events } = scriptedAgent([{ toolCalls: calls('hang', 3) }], { tools: [hang], maxParallelTools: 1 });
    // Cancelled once the first call runs (the listener itself runs just before it starts).
    agent.on('tool-call', () => setImmediate(() => agent.cancel()));
    const result = await agent.run('go');
    expect(result.exit).toBe('cancelled');
    expect(started).toBe(1);
    expect(events.filter((event) => event.type === 'tool-call')).toHaveLength(1);
    const errors = events.filter((event) => event.type === 'tool-result-error');
    expect(errors.map((event) => event.code)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(findHistoryProblem(agent.memory.messages())).toBeUndefined();
  });

  it('refuses a maxParallelTools that is not a whole number of at least 1, and a parallelToolCalls that is not a boolean', () => {
    const provider = new ScriptedProvider([]);
    for (const value of [0, 1.5, -1, Number.NaN]) {
      expect(() => new DefaultAgent(provider, { maxParallelTools: value })).toThrow(
        `maxParallelTools must be a whole number of at least 1, or Infinity, got ${value}.`,
      );
    }
    expect(() => new DefaultAgent(provider, { maxParallelTools: Number.POSITIVE_INFINITY })).not.toThrow();
    expect(() => new DefaultAgent(provider, { parallelToolCalls: 'no' as unknown as boolean })).toThrow(
      'parallelToolCalls must be true or false, got "no".',
    );
  });
});

import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultAgent } from '../agent/default-agent.js';
import { MemoryJournal, ScriptedProvider } from '../testing/index.js';

/** Two tools that log when they start and end, yielding once in between. */
function loggingTools(log: string[]) {
  return ['a', 'b'].map((name) =>
    defineTool({
      name,
      description: `Tool ${name}.`,
      parameters: z.object({}),
      execute: async () => {
        log.push(`start ${name}`);
        await Promise.resolve();
        log.push(`end ${name}`);
        return name;
      },
    }),
  );
}

async function runBoth(journal: MemoryJournal): Promise<string[]> {
  const log: string[] = [];
  const agent = new DefaultAgent(
    new ScriptedProvider([
      {
        toolCalls: [
          { id: 'c1', name: 'a', arguments: {} },
          { id: 'c2', name: 'b', arguments: {} },
        ],
      },
      { toolCalls: [{ id: 'c3', name: 'task_completion', arguments: { result: 'ok' } }] },
    ]),
    { tools: loggingTools(log), parallelToolCalls: true },
  );
  const result = await agent.run('Run both.', { journal });
  expect(result.exit).toBe('task_completion');
  return log;
}

describe('a journal that replays by order', () => {
  it("runs a response's tool calls one at a time, so that their steps start in the model's order", async () => {
    expect(await runBoth(new MemoryJournal({ replaysInOrder: true }))).toEqual([
      'start a',
      'end a',
      'start b',
      'end b',
    ]);
  });

  it('leaves them running at once with a journal that replays by name', async () => {
    expect(await runBoth(new MemoryJournal())).toEqual(['start a', 'start b', 'end a', 'end b']);
  });
});

describe('event ids of calls that run at once', () => {
  it('are the same on replay, though the calls finish in another order there', async () => {
    const log: string[] = [];
    const slowFirst = [
      defineTool({
        name: 'slow',
        description: 'Slow.',
        parameters: z.object({}),
        execute: async () => {
          for (let tick = 0; tick < 5; tick++) await Promise.resolve();
          log.push('slow');
          return 'slow';
        },
      }),
      defineTool({
        name: 'fast',
        description: 'Fast.',
        parameters: z.object({}),
        execute: () => {
          log.push('fast');
          return 'fast';
        },
      }),
    ];
    const steps = [
      {
        toolCalls: [
          { id: 'c1', name: 'slow', arguments: {} },
          { id: 'c2', name: 'fast', arguments: {} },
        ],
      },
      { toolCalls: [{ id: 'c3', name: 'task_completion', arguments: { result: 'ok' } }] },
    ];
    const run = async (journal: MemoryJournal, script: typeof steps) => {
      const agent = new DefaultAgent(new ScriptedProvider(script), {
        tools: slowFirst,
        parallelToolCalls: true,
        now: () => 0,
      });
      const events: { eventId?: string; type: string }[] = [];
      agent.onAny((event) => events.push(event));
      await agent.run('Run both.', { journal });
      return events;
    };
    const journal = new MemoryJournal({ now: () => 1 });
    const first = await run(journal, steps);
    expect(log).toEqual(['fast', 'slow']);
    const byId = new Map(first.map((event) => [event.eventId, event]));
    const replayed = await run(new MemoryJournal({ records: journal.records }), []);
    const results = replayed.filter((event) => event.type === 'tool-result');
    expect(results.map((event) => event.eventId)).toEqual([
      expect.stringMatching(/\/tool:1:c1\/tool-result\/1$/),
      expect.stringMatching(/\/tool:1:c2\/tool-result\/1$/),
      expect.stringMatching(/\/tool:2:c3\/tool-result\/1$/),
    ]);
    for (const event of replayed) expect(event).toEqual(byId.get(event.eventId));
    expect(log).toEqual(['fast', 'slow']);
  });
});

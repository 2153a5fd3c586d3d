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

import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultAgent } from '../agent/default-agent.js';
import { MemoryJournal, ScriptedProvider } from '../testing/index.js';
import { DirectJournal } from './direct-journal.js';
import type { Journal } from './journal.js';

/** A journal that fails at the step named `failAt` with `error`, as an engine that lost its connection. */
function failingJournal(failAt: string, error: Error): Journal {
  const direct = new DirectJournal({ now: () => 0 });
  return {
    step: (name, run) => (name === failAt ? Promise.reject(error) : direct.step(name, run)),
    now: () => direct.now(),
    randomId: () => 'run-1',
    awaitAnswer: (requestId, onRequest, options) => direct.awaitAnswer(requestId, onRequest, options),
    answer: (requestId, value) => direct.answer(requestId, value),
  };
}

const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

describe("a journal's own failure", () => {
  it.each(['model:1', 'tool:1:c1'])(
    'at %s makes agent.run reject with it, instead of ending the run with a result',
    async (failAt) => {
      const engineError = new Error('journal unreachable');
      const agent = new DefaultAgent(
        new ScriptedProvider([{ toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }] }]),
        { tools: [echo], journal: failingJournal(failAt, engineError) },
      );
      const ends: unknown[] = [];
      agent.on('loop-end', (event) => ends.push(event));
      await expect(agent.run('go')).rejects.toBe(engineError);
      expect(ends).toEqual([]);
      expect(agent.running).toBe(false);
    },
  );

  it("is told from a tool's failure, which stays a result the model sees", async () => {
    const failing = defineTool({
      name: 'fail',
      description: 'Fails.',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full');
      },
    });
    const journal = new MemoryJournal();
    const agent = new DefaultAgent(
      new ScriptedProvider([
        { toolCalls: [{ id: 'c1', name: 'fail', arguments: {} }] },
        { toolCalls: [{ id: 'c2', name: 'task_completion', arguments: { result: 'gave up' } }] },
      ]),
      { tools: [failing], journal },
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    const recorded = journal.records.find((record) => record.kind === 'step' && record.name === 'tool:1:c1');
    expect(recorded).toMatchObject({
      value: {
        outcome: { status: 'error', code: 'tool_failed', error: { message: expect.stringContaining('disk full') } },
      },
    });
  });
});

import type { TaskCompletionPayload } from '@agentloop/tools';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { AgentResult } from '../loop/agent-result.js';
import { ScriptedProvider } from '../testing/index.js';
import type { Agent } from './agent.js';
import type { OutputResult } from './agent-options.js';
import { DefaultAgent } from './default-agent.js';

const agent = new DefaultAgent(new ScriptedProvider([]));
const report = z.object({ title: z.string(), tags: z.array(z.string()).default([]), score: z.number().optional() });

describe('agent.run with an output schema', () => {
  it("types task_completion's result by a zod schema's output", async () => {
    const result = await agent.run('summarise', { output: report });
    if (result.exit === 'task_completion') {
      expectTypeOf(result.payload.result).toEqualTypeOf<{
        title: string;
        tags: string[];
        score?: number | undefined;
      }>();
      expectTypeOf(result.payload.artifacts).toEqualTypeOf<string[] | undefined>();
    }
  });

  it('types it as an object for a JSON Schema', async () => {
    const result = await agent.run('summarise', {
      output: { type: 'object', properties: { title: { type: 'string' } } },
    });
    if (result.exit === 'task_completion') expectTypeOf(result.payload.result).toEqualTypeOf<Record<string, unknown>>();
  });

  it('keeps text without one, also with other options', async () => {
    const plain = await agent.run('hi');
    if (plain.exit === 'task_completion') expectTypeOf(plain.payload.result).toEqualTypeOf<string>();
    const withSignal = await agent.run('hi', { signal: new AbortController().signal });
    expectTypeOf(withSignal).toEqualTypeOf<AgentResult>();
  });

  it("keeps the wrap-up's summary text, whatever the output schema", async () => {
    const result = await agent.run('summarise', { output: report });
    if (result.exit === 'max_iterations') {
      expectTypeOf(result.payload).toEqualTypeOf<TaskCompletionPayload | undefined>();
    }
  });

  it('types the result through the Agent interface too', async () => {
    const asAgent: Agent = agent;
    const result = await asAgent.run('summarise', { output: report });
    if (result.exit === 'task_completion') expectTypeOf(result.payload.result.title).toEqualTypeOf<string>();
  });

  it('refuses an output that is not a schema', () => {
    // @ts-expect-error: a string is not a schema
    void agent.run('summarise', { output: 'an object with a title' });
  });

  it('derives OutputResult from the schema', () => {
    expectTypeOf<OutputResult<undefined>>().toEqualTypeOf<string>();
    expectTypeOf<OutputResult<typeof report>>().toEqualTypeOf<z.output<typeof report>>();
  });
});

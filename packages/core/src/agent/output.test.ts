import { findHistoryProblem, messageText } from '@agentloop/spec';
import type { JsonSchema } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { echoTool, scriptedAgent } from '../test-support/agent-harness.js';
import type { RecordedRequest } from '../testing/index.js';

const report = z.object({ title: z.string().min(1), tags: z.array(z.string()).default([]) });

const finish = (result: unknown) => ({ toolCalls: [{ name: 'task_completion', arguments: { result } }] });

function resultSchemaOf(request: RecordedRequest | undefined): JsonSchema | undefined {
  const tool = request?.tools.find((candidate) => candidate.name === 'task_completion');
  return (tool?.inputSchema.properties as Record<string, JsonSchema> | undefined)?.result;
}

describe('agent.run with an output schema (native)', () => {
  it("gives task_completion's result the schema and ends with the validated, typed result", async () => {
    const { agent, provider, events } = scriptedAgent([finish({ title: 'Q3' })]);
    const result = await agent.run('summarise the quarter', { output: report });

    expect(result.exit).toBe('task_completion');
    expect(result.exit === 'task_completion' && result.payload.result).toEqual({ title: 'Q3', tags: [] });
    expect(resultSchemaOf(provider.requests[0])).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string' }, tags: { type: 'array' } },
    });
    expect(events.find((event) => event.type === 'task-complete')).toEqual({
      type: 'task-complete',
      iteration: 1,
      result: { title: 'Q3', tags: [] },
    });
  });

  it('sends a result that does not match back to the model as an error to correct', async () => {
    const { agent, provider, events } = scriptedAgent([
      finish({ tags: 'sales' }),
      finish({ title: 'Q3', tags: ['sales'] }),
    ]);
    const result = await agent.run('summarise', { output: report });

    expect(result.exit).toBe('task_completion');
    expect(result.iterations).toBe(2);
    expect(result.payload).toEqual({ result: { title: 'Q3', tags: ['sales'] } });
    const error = events.find((event) => event.type === 'tool-result-error');
    expect(error).toMatchObject({ name: 'task_completion', code: 'invalid_arguments' });
    const feedback = provider.requests[1]?.messages.at(-1);
    expect(feedback && JSON.stringify(feedback)).toMatch(/result\.title: .*; result\.tags: /);
    expect(findHistoryProblem(agent.memory.messages())).toBeUndefined();
  });

  it('decodes a result the model sent as JSON text', async () => {
    const { agent } = scriptedAgent([finish('{"title":"Q3"}')]);
    const result = await agent.run('summarise', { output: report });
    expect(result.payload).toEqual({ result: { title: 'Q3', tags: [] } });
  });

  it('offers the typed task_completion in every request of the run, and the text one again in the next run', async () => {
    const { agent, provider } = scriptedAgent(
      [{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }, finish({ title: 'Q3' }), finish('All done.')],
      { tools: [echoTool] },
    );
    await agent.run('summarise', { output: report });
    const [first, second] = provider.requests;
    expect(resultSchemaOf(second)).toEqual(resultSchemaOf(first));
    expect(first?.tools.map((tool) => tool.name)).toEqual(['task_completion', 'ask_question', 'converse', 'echo']);

    const next = await agent.run('and now in words');
    expect(next.payload).toEqual({ result: 'All done.' });
    expect(resultSchemaOf(provider.requests[2])).toMatchObject({ type: 'string' });
  });

  it('keeps the wrap-up summary as text in a typed run', async () => {
    const summary = { result: 'Found the title; the tags remain.' };
    const { agent, provider } = scriptedAgent([{ toolCalls: [{ name: 'task_completion', arguments: summary }] }], {
      maxIterations: 1,
    });
    const result = await agent.run('summarise', { output: report });
    expect(result.exit).toBe('max_iterations');
    expect(result.payload).toEqual(summary);
    expect(resultSchemaOf(provider.requests[0])).toMatchObject({ type: 'string' });
  });

  it('rejects a schema it cannot use before the run starts, saying why', async () => {
    const { agent, provider } = scriptedAgent([]);
    await expect(agent.run('list them', { output: z.array(z.string()) })).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('it must describe an object (wrap a list or a single value in one)'),
    });
    expect(provider.requests).toHaveLength(0);
    expect(agent.running).toBe(false);
  });
});

describe('agent.run with an output schema (XML)', () => {
  const textOnly = { capabilities: { nativeTools: false } };

  it("shows the result's schema in the prompt and ends with the typed result", async () => {
    const block = `<tool>\n${JSON.stringify({
      server_name: 'local',
      tool_name: 'task_completion',
      arguments: { result: { title: 'Q3', tags: ['sales'] } },
    })}\n</tool>`;
    const { agent, provider } = scriptedAgent([{ text: block }], {}, textOnly);
    const result = await agent.run('summarise', { output: report });

    expect(result.exit).toBe('task_completion');
    expect(result.payload).toEqual({ result: { title: 'Q3', tags: ['sales'] } });
    const prompt = provider.requests[0]?.systemPrompt ?? '';
    const section = prompt.slice(prompt.indexOf('## task_completion'), prompt.indexOf('## ask_question'));
    expect(section).toContain('- result (object, required)');
    expect(section).toContain('  - title (string, required; not empty)');
    expect(section).toContain('  - tags (array of string, optional; default [])');
    expect(messageText(provider.requests[0]?.messages[0] ?? { role: 'user', content: [] })).toBe('summarise');
  });
});

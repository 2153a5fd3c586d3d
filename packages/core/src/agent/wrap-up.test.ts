import { findHistoryProblem, messageText } from '@agentloop/spec';
import { defineTool, LOOP_CONTROL_TOOL_NAMES } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { complete, echoTool, scriptedAgent } from '../test-support/agent-harness.js';
import type { RecordedRequest } from '../testing/index.js';
import { DefaultAgent } from './default-agent.js';

const echoStep = { toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] };
const summary = { result: 'Read two of the three files; the third (c.txt) remains.', artifacts: ['notes.md'] };
const summaryStep = { toolCalls: [{ name: 'task_completion', arguments: summary }] };

function lastMessageText(request: RecordedRequest | undefined): string {
  const message = request?.messages.at(-1);
  expect(message?.role).toBe('user');
  return message ? messageText(message) : '';
}

describe('the wrap-up at maxIterations (native)', () => {
  it('offers only the loop-control tools in the last call, with the notice, and ends with its summary', async () => {
    const { agent, provider, events, types } = scriptedAgent([echoStep, echoStep, summaryStep], {
      tools: [echoTool],
      maxIterations: 3,
    });
    const result = await agent.run('read the files');

    expect(result.exit).toBe('max_iterations');
    expect(result.payload).toEqual(summary);
    expect(result.iterations).toBe(3);
    const [first, , last] = provider.requests;
    expect(first?.tools.map((tool) => tool.name)).toContain('echo');
    expect(last?.tools.map((tool) => tool.name)).toEqual([...LOOP_CONTROL_TOOL_NAMES]);
    expect(last?.toolChoice).toBe('required');
    expect(lastMessageText(last)).toContain('this is your last step');
    expect(findHistoryProblem(last?.messages ?? [])).toBeUndefined();
    expect(events.filter((event) => event.type === 'loop-wrap-up')).toEqual([
      { type: 'loop-wrap-up', runId: 'run-1', iteration: 3, maxIterations: 3 },
    ]);
    expect(events.find((event) => event.type === 'loop-max-reached')).toEqual({
      type: 'loop-max-reached',
      runId: 'run-1',
      iterations: 3,
      maxIterations: 3,
      ending: 'wrap-up',
      summary,
    });
    // The summary of an unfinished task is not announced as a completed task.
    expect(types()).not.toContain('task-complete');
    expect(types().slice(-2)).toEqual(['loop-max-reached', 'loop-end']);
  });

  it('keeps the notice out of the history, and a continued run picks up with the history intact', async () => {
    const { agent, provider } = scriptedAgent([echoStep, summaryStep, complete('All three files read.')], {
      tools: [echoTool],
      maxIterations: 2,
    });
    const first = await agent.run('read the files');
    expect(first.exit).toBe('max_iterations');
    const history = [...agent.memory.messages()];
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(history.some((message) => messageText(message).includes('last step'))).toBe(false);
    expect(findHistoryProblem(history)).toBeUndefined();

    const second = await agent.run('continue');
    expect(second.exit).toBe('task_completion');
    expect(second.payload).toEqual({ result: 'All three files read.' });
    const request = provider.requests[2];
    // A fresh budget: the continued run's first call offers every tool again.
    expect(request?.tools.map((tool) => tool.name)).toContain('echo');
    expect(request?.messages.slice(0, -1)).toEqual(history);
    expect(lastMessageText(request)).toBe('continue');
    expect(findHistoryProblem(agent.memory.messages())).toBeUndefined();
  });

  it('ends with max_iterations cleanly when the model calls no loop-control tool in the wrap-up', async () => {
    const { agent, events } = scriptedAgent([echoStep, { text: 'I ran out of steps.' }], {
      tools: [echoTool],
      maxIterations: 2,
    });
    const result = await agent.run('go');
    expect(result.exit).toBe('max_iterations');
    expect(result.payload).toBeUndefined();
    expect(result.error).toBeUndefined();
    expect(events.find((event) => event.type === 'loop-max-reached')).toMatchObject({ ending: 'wrap-up' });
    expect(events.find((event) => event.type === 'loop-max-reached')).not.toHaveProperty('summary');
    // No reminder is left behind for the next run.
    expect(agent.memory.messages().at(-1)?.role).toBe('assistant');
    expect(findHistoryProblem(agent.memory.messages())).toBeUndefined();
  });

  it('does not run other tools in the wrap-up, answers them as not run, and still takes the summary', async () => {
    let runs = 0;
    const counted = defineTool({
      name: 'counted',
      description: 'Counts its runs.',
      parameters: z.object({}),
      execute: () => ++runs,
    });
    const { agent, events } = scriptedAgent(
      [
        {
          toolCalls: [
            { name: 'counted', arguments: {} },
            { name: 'task_completion', arguments: summary },
          ],
        },
      ],
      { tools: [counted], maxIterations: 1 },
    );
    const result = await agent.run('go');
    expect(runs).toBe(0);
    expect(result.exit).toBe('max_iterations');
    expect(result.payload).toEqual(summary);
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({
      name: 'counted',
      code: 'not_run',
      content: expect.stringContaining('reached its step limit'),
    });
    expect(findHistoryProblem(agent.memory.messages())).toBeUndefined();
  });

  it('gives an invalid summary its error result and ends with max_iterations without a payload', async () => {
    const { agent, events } = scriptedAgent([{ toolCalls: [{ name: 'task_completion', arguments: { result: '' } }] }], {
      maxIterations: 1,
    });
    const result = await agent.run('go');
    expect(result.exit).toBe('max_iterations');
    expect(result.payload).toBeUndefined();
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({
      name: 'task_completion',
      code: 'invalid_arguments',
    });
    expect(findHistoryProblem(agent.memory.messages())).toBeUndefined();
  });

  it('lets a question asked in the wrap-up end the run as ask_question', async () => {
    const { agent, types } = scriptedAgent(
      [echoStep, { toolCalls: [{ name: 'ask_question', arguments: { question: 'Go on with c.txt?' } }] }],
      { tools: [echoTool], maxIterations: 2 },
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('ask_question');
    expect(result.payload).toEqual({ question: 'Go on with c.txt?' });
    expect(types()).toContain('loop-wrap-up');
    expect(types()).not.toContain('loop-max-reached');
  });

  it("with onMaxIterations 'stop', makes the last call an ordinary one", async () => {
    const { agent, provider, types } = scriptedAgent([echoStep, echoStep], {
      tools: [echoTool],
      maxIterations: 2,
      onMaxIterations: 'stop',
    });
    const result = await agent.run('go');
    expect(result.exit).toBe('max_iterations');
    expect(provider.requests[1]?.tools.map((tool) => tool.name)).toContain('echo');
    expect(provider.requests[1]?.messages.at(-1)?.role).toBe('tool');
    expect(types()).not.toContain('loop-wrap-up');
  });

  it('refuses an unknown onMaxIterations with a clear error', () => {
    const { provider } = scriptedAgent([]);
    expect(() => new DefaultAgent(provider, { onMaxIterations: 'finish' as 'stop' })).toThrow(
      `onMaxIterations must be 'wrap-up' or 'stop', got "finish".`,
    );
  });
});

describe('the wrap-up at maxIterations (XML)', () => {
  const textOnly = { capabilities: { nativeTools: false } };
  const block = (toolName: string, args: unknown) =>
    `<tool>\n${JSON.stringify({ server_name: 'local', tool_name: toolName, arguments: args })}\n</tool>`;

  it('lists only the loop-control tools in the prompt, says so, and ends with the summary', async () => {
    const { agent, provider } = scriptedAgent(
      [{ text: block('echo', { text: 'a' }) }, { text: block('task_completion', summary) }],
      { tools: [echoTool], maxIterations: 2 },
      textOnly,
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('max_iterations');
    expect(result.payload).toEqual(summary);
    const [first, last] = provider.requests;
    expect(first?.systemPrompt).toContain('## echo');
    expect(last?.systemPrompt).not.toContain('## echo');
    expect(last?.systemPrompt).toContain('## task_completion');
    const notice = lastMessageText(last);
    expect(notice).toContain('this is your last step');
    expect(notice).toContain('"tool_name": "task_completion"');
    expect(findHistoryProblem(agent.memory.messages())).toBeUndefined();
  });

  it('answers a tool block other than a loop-control one as not run', async () => {
    const { agent, events } = scriptedAgent(
      [{ text: block('echo', { text: 'a' }) }],
      { tools: [echoTool], maxIterations: 1 },
      textOnly,
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('max_iterations');
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({ name: 'echo', code: 'not_run' });
    expect(events.some((event) => event.type === 'tool-result')).toBe(false);
  });
});

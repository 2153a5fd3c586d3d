import { ProviderError } from '@agentloop/spec';
import { defineTool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { complete, echoTool, scriptedAgent } from '../test-support/agent-harness.js';

describe('DefaultAgent exits', () => {
  it('ends with task_completion, its payload and a task-complete event', async () => {
    const { agent, events } = scriptedAgent([
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Done.', artifacts: ['a.txt'] } }] },
    ]);
    const result = await agent.run('do it');
    expect(result.exit).toBe('task_completion');
    expect(result.payload).toEqual({ result: 'Done.', artifacts: ['a.txt'] });
    expect(events.find((event) => event.type === 'task-complete')).toEqual({
      type: 'task-complete',
      iteration: 1,
      result: 'Done.',
      artifacts: ['a.txt'],
    });
    expect(result.iterations).toBe(1);
  });

  it('ends with ask_question, its payload and a question-asked event', async () => {
    const { agent, events } = scriptedAgent([
      { toolCalls: [{ name: 'ask_question', arguments: { question: 'Which file?', suggestions: ['a', 'b'] } }] },
    ]);
    const result = await agent.run('edit the file');
    expect(result.exit).toBe('ask_question');
    expect(result.payload).toEqual({ question: 'Which file?', suggestions: ['a', 'b'] });
    expect(events.find((event) => event.type === 'question-asked')).toEqual({
      type: 'question-asked',
      iteration: 1,
      question: 'Which file?',
      suggestions: ['a', 'b'],
    });
  });

  it('ends with converse, its payload and a converse event', async () => {
    const { agent, events } = scriptedAgent([{ toolCalls: [{ name: 'converse', arguments: { message: 'Hello!' } }] }]);
    const result = await agent.run('hi');
    expect(result.exit).toBe('converse');
    expect(result.payload).toEqual({ message: 'Hello!' });
    expect(events.find((event) => event.type === 'converse')).toEqual({
      type: 'converse',
      iteration: 1,
      message: 'Hello!',
    });
  });

  it('gives a loop-control call with an empty required field an error result and goes on', async () => {
    const { agent, provider, events } = scriptedAgent([
      { toolCalls: [{ name: 'task_completion', arguments: { result: '   ' } }] },
      complete('Done for real.'),
    ]);
    const result = await agent.run('do it');
    expect(result.exit).toBe('task_completion');
    expect(result.iterations).toBe(2);
    const error = events.find((event) => event.type === 'tool-result-error');
    expect(error).toMatchObject({ name: 'task_completion', code: 'invalid_arguments' });
    expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain('result: must not be empty');
  });

  it('runs the other calls first when a loop-control call arrives beside them, then exits', async () => {
    const { agent, types } = scriptedAgent(
      [
        {
          toolCalls: [
            { name: 'task_completion', arguments: { result: 'ok' } },
            { name: 'echo', arguments: { text: 'x' } },
          ],
        },
      ],
      { tools: [echoTool] },
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    const sequence = types().filter((type) => type === 'tool-result' || type === 'task-complete');
    expect(sequence).toEqual(['tool-result', 'tool-result', 'task-complete']);
    const toolMessage = result.messages.at(-1);
    expect(toolMessage).toMatchObject({
      role: 'tool',
      content: [
        { toolName: 'task_completion', isError: false },
        { toolName: 'echo', content: 'echo: x' },
      ],
    });
  });
});

describe('DefaultAgent tool failures', () => {
  it('turns a tool that throws into tool-result-error and goes on', async () => {
    const failing = defineTool({
      name: 'fail',
      description: 'fails',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full');
      },
    });
    const { agent, provider, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'fail', arguments: {} }] }, complete('gave up')],
      { tools: [failing] },
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({
      name: 'fail',
      code: 'tool_failed',
      content: 'Tool "fail" failed: disk full',
    });
    expect(provider.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ isError: true, content: 'Tool "fail" failed: disk full' }],
    });
  });

  it('turns an unknown tool into tool-result-error naming the available tools', async () => {
    const { agent, events } = scriptedAgent([{ toolCalls: [{ name: 'nope', arguments: {} }] }, complete('ok')], {
      tools: [echoTool],
    });
    await agent.run('go');
    const error = events.find((event) => event.type === 'tool-result-error');
    expect(error).toMatchObject({ name: 'nope', code: 'unknown_tool' });
    expect(error && 'content' in error ? error.content : '').toContain(
      'Available tools: task_completion, ask_question, converse, echo',
    );
  });

  it('turns invalid arguments into tool-result-error naming the field', async () => {
    const { agent, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'echo', arguments: { text: 42 } }] }, complete('ok')],
      { tools: [echoTool] },
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    const error = events.find((event) => event.type === 'tool-result-error');
    expect(error).toMatchObject({ code: 'invalid_arguments' });
    expect(error && 'content' in error ? error.content : '').toMatch(
      /^Invalid arguments for tool "echo": text: .*expected string/,
    );
  });

  it('turns arguments that are not JSON into tool-result-error', async () => {
    const { agent, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'echo', arguments: 'not json at all {{{' }] }, complete('ok')],
      { tools: [echoTool] },
    );
    await agent.run('go');
    expect(events.find((event) => event.type === 'tool-result-error')).toMatchObject({
      name: 'echo',
      code: 'invalid_arguments',
    });
  });

  it('does not run a call whose JSON was cut off by the output limit', async () => {
    let ran = false;
    const write = defineTool({
      name: 'write',
      description: 'writes',
      parameters: z.object({ path: z.string() }),
      execute: () => {
        ran = true;
      },
    });
    const { agent, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'write', arguments: '{"path": "/src/ma' }], finishReason: 'length' }, complete('ok')],
      { tools: [write] },
    );
    await agent.run('go');
    expect(ran).toBe(false);
    const error = events.find((event) => event.type === 'tool-result-error');
    expect(error && 'content' in error ? error.content : '').toContain('cut off by the output token limit');
  });

  it('ends with exit error and a clear message when the provider fails', async () => {
    const failure = new ProviderError('Anthropic rejected the API key (401).', {
      code: 'authentication',
      provider: 'anthropic',
      statusCode: 401,
    });
    const { agent, events } = scriptedAgent([{ error: failure }]);
    const result = await agent.run('go');
    expect(result.exit).toBe('error');
    expect(result.error?.code).toBe('authentication');
    expect(result.error?.message).toBe('Anthropic rejected the API key (401).');
    expect(events.at(-1)?.type).toBe('loop-end');
  });

  it('ends with exit error when the script runs out (ScriptedProvider fails loudly)', async () => {
    const { agent } = scriptedAgent([{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }], {
      tools: [echoTool],
    });
    const result = await agent.run('go');
    expect(result.exit).toBe('error');
    expect(result.error?.code).toBe('script_exhausted');
  });
});

describe('DefaultAgent without tool calls', () => {
  it('emits no-tool-call and sends a reminder in the next request', async () => {
    const { agent, provider, events } = scriptedAgent([{ text: 'I think the answer is 4.' }, complete('4')]);
    const result = await agent.run('2+2?');
    expect(result.exit).toBe('task_completion');
    expect(events.find((event) => event.type === 'no-tool-call')).toEqual({
      type: 'no-tool-call',
      iteration: 1,
      text: 'I think the answer is 4.',
      consecutive: 1,
    });
    const last = provider.requests[1]?.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(JSON.stringify(last)).toContain('did not call a tool');
  });

  it('asks the provider to require a tool call in native mode', async () => {
    const { agent, provider } = scriptedAgent([complete('ok')]);
    await agent.run('go');
    expect(provider.requests[0]?.toolChoice).toBe('required');
    expect(provider.requests[0]?.tools.map((tool) => tool.name)).toEqual([
      'task_completion',
      'ask_question',
      'converse',
    ]);
  });

  it('takes the text as converse after two reminders in a row', async () => {
    const { agent, provider } = scriptedAgent([{ text: 'one' }, { text: 'two' }, { text: 'Hello there.' }]);
    const result = await agent.run('hi');
    expect(result.exit).toBe('converse');
    expect(result.payload).toEqual({ message: 'Hello there.' });
    expect(provider.requests).toHaveLength(3);
  });

  it('resets the count of reminders after a tool call', async () => {
    const { agent } = scriptedAgent(
      [
        { text: 'a' },
        { text: 'b' },
        { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] },
        { text: 'c' },
        complete('ok'),
      ],
      { tools: [echoTool] },
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
  });
});

describe('DefaultAgent limits', () => {
  it('ends with max_iterations and loop-max-reached after maxIterations model calls', async () => {
    const step = { toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] };
    const { agent, provider, events } = scriptedAgent([step, step, step], {
      tools: [echoTool],
      maxIterations: 3,
      onMaxIterations: 'stop',
    });
    const result = await agent.run('loop');
    expect(result.exit).toBe('max_iterations');
    expect(result.payload).toBeUndefined();
    expect(result.iterations).toBe(3);
    expect(provider.requests).toHaveLength(3);
    expect(events.find((event) => event.type === 'loop-max-reached')).toEqual({
      type: 'loop-max-reached',
      runId: 'run-1',
      iterations: 3,
      maxIterations: 3,
      ending: 'stop',
    });
    expect(events.some((event) => event.type === 'loop-wrap-up')).toBe(false);
    expect(events.at(-1)?.type).toBe('loop-end');
  });

  it('defaults maxIterations to 10', async () => {
    const step = { toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] };
    const { agent, provider } = scriptedAgent(
      Array.from({ length: 10 }, () => step),
      { tools: [echoTool] },
    );
    const result = await agent.run('loop');
    expect(result.exit).toBe('max_iterations');
    expect(provider.requests).toHaveLength(10);
  });

  it('rejects a second run while one is going', async () => {
    const { agent } = scriptedAgent([{ text: 'x', hang: true }]);
    const first = agent.run('one');
    await expect(agent.run('two')).rejects.toMatchObject({ code: 'agent_busy' });
    agent.cancel();
    expect((await first).exit).toBe('cancelled');
  });
});

describe('DefaultAgent conversation', () => {
  it('answers an ask_question with a second run that continues the conversation', async () => {
    const { agent, provider } = scriptedAgent([
      { toolCalls: [{ name: 'ask_question', arguments: { question: 'Which city?' } }] },
      complete('Weather for Paris'),
    ]);
    expect((await agent.run('weather?')).exit).toBe('ask_question');
    const second = await agent.run('Paris');
    expect(second.exit).toBe('task_completion');
    const sent = provider.requests[1]?.messages ?? [];
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(sent.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'Paris' }] });
    expect(second.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Paris' }] });
  });

  it('delivers input sent during a run at the next iteration', async () => {
    const { agent, provider, events } = scriptedAgent(
      [{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }, complete('ok')],
      { tools: [echoTool] },
    );
    agent.once('tool-call', () => agent.send('also do b'));
    await agent.run('do a');
    expect(provider.requests[1]?.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'also do b' }],
    });
    expect(
      events
        .filter((event) => event.type === 'input-queued' || event.type === 'input-delivered')
        .map((event) => event.type),
    ).toEqual(['input-queued', 'input-delivered']);
  });

  it('records thinking with its signature in the assistant message, before the tool call', async () => {
    const { agent, provider } = scriptedAgent(
      [
        {
          thinking: { text: 'Need to echo.', signature: 'sig-123' },
          toolCalls: [{ name: 'echo', arguments: { text: 'a' } }],
        },
        complete('ok'),
      ],
      { tools: [echoTool] },
    );
    await agent.run('go');
    expect(provider.requests[1]?.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Need to echo.', signature: 'sig-123' },
        { type: 'tool-call', toolCallId: 'call_1_1', toolName: 'echo', arguments: { text: 'a' } },
      ],
    });
  });

  it('adds up usage over the run', async () => {
    const { agent } = scriptedAgent(
      [
        {
          toolCalls: [{ name: 'echo', arguments: { text: 'a' } }],
          usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 80 },
        },
        { ...complete('ok'), usage: { inputTokens: 120, outputTokens: 12 } },
      ],
      { tools: [echoTool] },
    );
    const result = await agent.run('go');
    expect(result.usage).toEqual({
      inputTokens: 220,
      outputTokens: 22,
      cacheReadTokens: 80,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('switches provider between runs with setProvider', async () => {
    const { agent, provider } = scriptedAgent([complete('first')]);
    await agent.run('one');
    const { provider: other } = scriptedAgent([complete('second')]);
    agent.setProvider(other);
    const result = await agent.run('two');
    expect(result.payload).toEqual({ result: 'second' });
    expect(provider.requests).toHaveLength(1);
    expect(other.requests[0]?.messages).toHaveLength(4);
  });
});

describe('DefaultAgent instructions', () => {
  it('builds the prompt from the instruction layers and sends environment changes as a diff message', async () => {
    const { agent, provider } = scriptedAgent([complete('one'), complete('two')], {
      instructions: { developerInstructions: 'Prefer small commits.', environment: { cwd: '/repo', shell: 'bash' } },
    });
    await agent.run('first');
    expect(provider.requests[0]?.systemPrompt).toContain('Prefer small commits.');
    expect(provider.requests[0]?.systemPrompt).toContain('<cwd>/repo</cwd>');
    expect(agent.updateEnvironment({ cwd: '/repo/packages/api', shell: 'bash' })).toBe(true);
    expect(agent.updateEnvironment({ cwd: '/repo/packages/api', shell: 'bash' })).toBe(false);
    await agent.run('second');
    const sent = provider.requests[1];
    expect(sent?.systemPrompt).toBe(provider.requests[0]?.systemPrompt);
    // Queued before the run, the diff goes before the run's input.
    const diff = JSON.stringify(sent?.messages.at(-2));
    expect(diff).toContain('environment_diff');
    expect(diff).toContain('/repo/packages/api');
    expect(diff).not.toContain('bash');
  });
});

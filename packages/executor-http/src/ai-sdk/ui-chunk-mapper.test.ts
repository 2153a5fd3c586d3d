import type { AgentEvent, AgentResult } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider, type ScriptStep } from '@agentloop/core/testing';
import { AgentloopError } from '@agentloop/spec';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { askForWrites, BOOKING_FORM, bookTableTool, editTool, readTool } from '../test-support/test-server.js';
import { UiChunkMapper } from './ui-chunk-mapper.js';

const finish = (result: string) => ({ toolCalls: [{ name: 'task_completion', arguments: { result } }] });
const edit = { path: 'a.txt', old_text: 'a', new_text: 'b' };

/** Runs an agent on the script and maps all its events, as one response that lasts the whole run. */
async function mapRun(
  script: ScriptStep[],
  options: { answer?: 'allow-once' | 'deny' } = {},
): Promise<{ chunks: UIMessageChunk[]; result: AgentResult<unknown> }> {
  const agent = new DefaultAgent(new ScriptedProvider(script, { chunkSize: 100 }), {
    approval: askForWrites,
    createId: () => 'run-1',
  });
  agent.registerTool(readTool).registerTool(editTool([]));
  const { answer } = options;
  if (answer) agent.on('approval-requested', (event) => agent.answerApproval(event.requestId, { decision: answer }));
  const mapper = new UiChunkMapper();
  // Typed as the SDK's own chunk: a chunk the SDK does not know fails the type check of this test.
  const chunks: UIMessageChunk[] = [...mapper.start({ runId: 'r1', messageId: 'm1' })];
  agent.onAny((event) => chunks.push(...mapper.map(event)));
  const result = await agent.run('Go');
  chunks.push(...mapper.end({ result, messages: [] }));
  return { chunks, result };
}

/** The message the AI SDK makes of the chunks. */
async function readMessage(chunks: UIMessageChunk[], errors: unknown[] = []): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, onError: (error) => errors.push(error) })) last = message;
  if (!last) throw new Error('no message');
  // As the client would send it back: the SDK leaves fields it has no value for as undefined.
  return JSON.parse(JSON.stringify(last)) as UIMessage;
}

describe('UiChunkMapper', () => {
  it('streams a tool loop as steps of reasoning, text and a tool part, and the result as text', async () => {
    const { chunks } = await mapRun([
      {
        thinking: 'Look first.',
        text: 'Reading.',
        toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }],
      },
      finish('a.txt holds text'),
    ]);
    const message = await readMessage(chunks);
    expect(message.id).toBe('m1');
    expect(message.parts).toEqual([
      { type: 'step-start' },
      { type: 'reasoning', id: 'reasoning-1', text: 'Look first.', state: 'done' },
      { type: 'text', text: 'Reading.', state: 'done' },
      {
        type: 'tool-read_file',
        toolCallId: 'c1',
        state: 'output-available',
        input: { path: 'a.txt' },
        output: 'contents of a.txt',
      },
      { type: 'step-start' },
      { type: 'text', text: 'a.txt holds text', state: 'done' },
      { type: 'data-agentloop-result', data: { result: 'a.txt holds text', artifacts: [] } },
    ]);
    expect(message.metadata).toMatchObject({ runId: 'r1', exit: 'task_completion' });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(chunks.filter((chunk) => chunk.type === 'start-step')).toHaveLength(2);
    expect(chunks.filter((chunk) => chunk.type === 'finish-step')).toHaveLength(2);
  });

  it('turns ask_question into its text and a data-agentloop-question part with the suggestions', async () => {
    const { chunks } = await mapRun([
      {
        toolCalls: [{ name: 'ask_question', arguments: { question: 'Which file?', suggestions: ['a.txt', 'b.txt'] } }],
      },
    ]);
    const message = await readMessage(chunks);
    expect(message.parts.slice(1)).toEqual([
      { type: 'text', text: 'Which file?', state: 'done' },
      { type: 'data-agentloop-question', data: { question: 'Which file?', suggestions: ['a.txt', 'b.txt'] } },
    ]);
    expect(message.metadata).toMatchObject({ exit: 'ask_question' });
  });

  it('turns converse into text and shows no tool part for a loop-control call', async () => {
    const { chunks } = await mapRun([{ toolCalls: [{ name: 'converse', arguments: { message: 'Hello there.' } }] }]);
    const message = await readMessage(chunks);
    expect(message.parts).toEqual([{ type: 'step-start' }, { type: 'text', text: 'Hello there.', state: 'done' }]);
  });

  it('shows a reply taken as converse once, after a model kept answering without tools', async () => {
    const { chunks, result } = await mapRun([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }]);
    expect(result.exit).toBe('converse');
    const message = await readMessage(chunks);
    const texts = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
    expect(texts).toEqual(['One.', 'Two.', 'Three.']);
  });

  it('asks for approval on the tool part and shows the output of the allowed call', async () => {
    const { chunks } = await mapRun(
      [{ toolCalls: [{ id: 'c1', name: 'edit_file', arguments: edit }] }, finish('done')],
      { answer: 'allow-once' },
    );
    expect(chunks).toContainEqual({ type: 'tool-approval-request', approvalId: 'approval-run-1-1', toolCallId: 'c1' });
    const message = await readMessage(chunks);
    expect(message.parts[1]).toMatchObject({
      type: 'tool-edit_file',
      toolCallId: 'c1',
      state: 'output-available',
      output: 'edited a.txt',
      approval: { id: 'approval-run-1-1' },
    });
    expect(message.parts[2]).toEqual({
      type: 'data-agentloop-approval',
      id: 'approval-run-1-1',
      data: {
        requestId: 'approval-run-1-1',
        toolCallId: 'c1',
        name: 'edit_file',
        arguments: edit,
        reason: 'edit_file can change files',
        view: { kind: 'edit', title: 'Edit a.txt', path: 'a.txt', diff: '--- a/a.txt\n+++ b/a.txt\n-a\n+b' },
        choices: ['allow-once', 'allow-session', 'deny'],
        path: [],
        decision: 'allow-once',
      },
    });
  });

  it('shows a denied call as output-denied, not as the error result the model is told', async () => {
    const { chunks } = await mapRun(
      [{ toolCalls: [{ id: 'c1', name: 'edit_file', arguments: edit }] }, finish('not done')],
      { answer: 'deny' },
    );
    expect(chunks).toContainEqual({ type: 'tool-output-denied', toolCallId: 'c1' });
    expect(chunks.some((chunk) => chunk.type === 'tool-output-error')).toBe(false);
    const message = await readMessage(chunks);
    expect(message.parts[1]).toMatchObject({ type: 'tool-edit_file', state: 'output-denied' });
  });

  it('shows a failed tool call as output-error with the text the model sees', async () => {
    const { chunks } = await mapRun([
      { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { nope: 1 } }] },
      finish('gave up'),
    ]);
    const message = await readMessage(chunks);
    expect(message.parts[1]).toMatchObject({ type: 'tool-read_file', state: 'output-error' });
    expect((message.parts[1] as { errorText: string }).errorText).toContain('Invalid arguments for tool "read_file"');
  });

  it('ends a failed run with an error chunk that keeps the error’s message to the server', async () => {
    const secret = new AgentloopError('401 from https://api.example.com with x-api-key sk-secret', {
      code: 'authentication',
    });
    const { chunks, result } = await mapRun([{ text: 'Hm', error: secret }]);
    expect(result.exit).toBe('error');
    const errors: unknown[] = [];
    await readMessage(chunks, errors);
    const error = chunks.find((chunk) => chunk.type === 'error');
    expect(error).toEqual({
      type: 'error',
      errorText:
        'The server’s credentials for the model provider were refused: ask its operator to check them. (code: authentication)',
    });
    expect(JSON.stringify(chunks)).not.toContain('sk-secret');
    expect(errors).toHaveLength(1);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'error', messageMetadata: { exit: 'error' } });
  });

  it('waits on the user only once every call of the step has its output or waits for approval', () => {
    const mapper = new UiChunkMapper();
    const base = { iteration: 1 };
    const call = (toolCallId: string, name: string): AgentEvent => ({
      type: 'tool-call',
      ...base,
      toolCallId,
      name,
      arguments: {},
    });
    mapper.map({ type: 'loop-iteration', runId: 'r1', iteration: 1 });
    mapper.map(call('c1', 'edit_file'));
    mapper.map(call('c2', 'read_file'));
    mapper.map({
      type: 'approval-requested',
      ...base,
      requestId: 'approval-1',
      toolCallId: 'c1',
      name: 'edit_file',
      arguments: {},
      annotations: { readOnly: false, destructive: true, openWorld: false },
      reason: 'edit_file can change files',
      choices: ['allow-once', 'deny'],
    });
    expect(mapper.waitingOnUser).toBe(false);
    mapper.map({
      type: 'tool-result',
      ...base,
      toolCallId: 'c2',
      name: 'read_file',
      content: 'x',
      value: 'x',
      durationMs: 1,
    });
    expect(mapper.waitingOnUser).toBe(true);
    expect(mapper.pause()).toEqual([{ type: 'finish-step' }, { type: 'finish', finishReason: 'tool-calls' }]);
  });

  it('sends the results of calls a continued message shows, and of no others', () => {
    const mapper = new UiChunkMapper({ knownToolCallIds: ['c1'] });
    const result = (toolCallId: string): AgentEvent => ({
      type: 'tool-result',
      iteration: 1,
      toolCallId,
      name: 'edit_file',
      content: 'edited',
      value: { ok: true },
      durationMs: 1,
    });
    expect(mapper.map(result('c1'))).toEqual([
      { type: 'tool-output-available', toolCallId: 'c1', output: { ok: true } },
    ]);
    expect(mapper.map(result('c9'))).toEqual([]);
  });

  it('shows a sub-agent’s approval request and question as data parts, and does not wait on them', () => {
    const mapper = new UiChunkMapper();
    const path = [{ toolName: 'researcher', toolCallId: 'c1' }];
    mapper.map({ type: 'loop-iteration', runId: 'r1', iteration: 1 });
    mapper.map({ type: 'tool-call', iteration: 1, toolCallId: 'c1', name: 'researcher', arguments: {} });
    const approval = mapper.map({
      type: 'subagent-event',
      path,
      event: {
        type: 'approval-requested',
        iteration: 1,
        requestId: 'approval-1',
        toolCallId: 'child-1',
        name: 'run_command',
        arguments: { command: 'ls' },
        command: 'ls',
        annotations: { readOnly: false, destructive: true, openWorld: true },
        reason: 'run_command can change things',
        choices: ['allow-once', 'allow-session', 'deny'],
      },
    });
    expect(approval).toEqual([
      {
        type: 'data-agentloop-approval',
        id: 'approval-1',
        data: {
          requestId: 'approval-1',
          toolCallId: 'child-1',
          name: 'run_command',
          arguments: { command: 'ls' },
          command: 'ls',
          reason: 'run_command can change things',
          view: { kind: 'command', title: 'Run ls', command: 'ls' },
          choices: ['allow-once', 'allow-session', 'deny'],
          path,
        },
      },
    ]);
    const question = mapper.map({
      type: 'subagent-question',
      path,
      requestId: 'question-1',
      question: 'Which branch?',
      suggestions: ['main'],
    });
    expect(question).toEqual([
      {
        type: 'data-agentloop-subagent-question',
        id: 'question-1',
        data: { requestId: 'question-1', question: 'Which branch?', suggestions: ['main'], path },
      },
    ]);
    expect(mapper.waitingOnUser).toBe(false);
  });

  it('ends a run stopped by its step limit with what it did, and a cancelled one with abort', () => {
    const figures = { usage: { inputTokens: 3, outputTokens: 4 }, iterations: 10, messages: [] };
    const limited = { exit: 'max_iterations', payload: { result: 'Fixed one of two files.' }, ...figures };
    expect(new UiChunkMapper().end({ result: limited as unknown as AgentResult<unknown>, messages: [] })).toEqual([
      { type: 'text-start', id: 'text-1' },
      {
        type: 'text-delta',
        id: 'text-1',
        delta: 'Stopped after 10 model calls without finishing the task.\n\nFixed one of two files.',
      },
      { type: 'text-end', id: 'text-1' },
      {
        type: 'finish',
        finishReason: 'length',
        messageMetadata: { exit: 'max_iterations', usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } },
      },
    ]);
    const cancelled = {
      exit: 'cancelled',
      payload: undefined,
      error: new AgentloopError('x', { code: 'cancelled' }),
      ...figures,
    };
    expect(new UiChunkMapper().end({ result: cancelled as unknown as AgentResult<unknown>, messages: [] })).toEqual([
      { type: 'abort', reason: 'The run was cancelled.' },
      {
        type: 'finish',
        finishReason: 'other',
        messageMetadata: { exit: 'cancelled', usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 } },
      },
    ]);
  });

  it('ends a run that failed before its loop with a generic error', () => {
    const chunks = new UiChunkMapper().end({ error: new Error('ECONNREFUSED 10.0.0.7:5432 password=hunter2') });
    expect(chunks).toEqual([
      { type: 'error', errorText: 'The run failed inside the server; its log says why.' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  it('ends the open text at a retry, so the retried output starts a part of its own', () => {
    const mapper = new UiChunkMapper();
    mapper.map({ type: 'loop-iteration', runId: 'r1', iteration: 1 });
    mapper.map({ type: 'message-start', iteration: 1 });
    mapper.map({ type: 'message-content', iteration: 1, text: 'Half a' });
    const retry = mapper.map({
      type: 'retry',
      iteration: 1,
      attempt: 1,
      delayMs: 500,
      error: new AgentloopError('cut', { code: 'stream_broken' }),
      discardOutput: true,
    });
    expect(retry).toEqual([
      { type: 'text-end', id: 'text-1' },
      { type: 'data-agentloop-retry', data: { attempt: 1, delayMs: 500, discardOutput: true, code: 'stream_broken' } },
    ]);
    expect(mapper.map({ type: 'message-content', iteration: 1, text: 'Whole answer' })).toEqual([
      { type: 'text-start', id: 'text-2' },
      { type: 'text-delta', id: 'text-2', delta: 'Whole answer' },
    ]);
  });

  it('shows a tool’s elicitation as a data part the chat keeps, replaced by the answered one', async () => {
    const agent = new DefaultAgent(
      new ScriptedProvider([{ toolCalls: [{ id: 'c1', name: 'book_table', arguments: {} }] }, finish('booked')]),
      { createId: () => 'r1' },
    ).registerTool(bookTableTool);
    const mapper = new UiChunkMapper({ approvalTimeoutMs: 60_000, now: () => Date.parse('2026-01-01T12:00:00.000Z') });
    const chunks: UIMessageChunk[] = [...mapper.start({ runId: 'r1', messageId: 'm1' })];
    let waitingWhileAsked: boolean | undefined;
    agent.onAny((event) => {
      chunks.push(...mapper.map(event));
      if (event.type === 'elicitation-requested') waitingWhileAsked = mapper.waitingOnUser;
    });
    agent.on('elicitation-requested', (event) =>
      agent.answerElicitation(event.requestId, { action: 'accept', content: { name: 'Ada' } }),
    );
    const result = await agent.run('Book');
    chunks.push(...mapper.end({ result, messages: [] }));
    const asked = {
      requestId: 'elicitation-r1-1',
      toolCallId: 'c1',
      name: 'book_table',
      server: 'bookings',
      message: 'Which table?',
      mode: 'form',
      schema: BOOKING_FORM,
      path: [],
      expiresAt: '2026-01-01T12:01:00.000Z',
    };
    expect(chunks.filter((chunk) => chunk.type === 'data-agentloop-elicitation')).toEqual([
      { type: 'data-agentloop-elicitation', id: 'elicitation-r1-1', data: asked },
      { type: 'data-agentloop-elicitation', id: 'elicitation-r1-1', data: { ...asked, action: 'accept' } },
    ]);
    // The call runs while the user answers: the response does not end there.
    expect(waitingWhileAsked).toBe(false);
    const message = await readMessage(chunks);
    expect(message.parts.filter((part) => part.type === 'data-agentloop-elicitation')).toEqual([
      { type: 'data-agentloop-elicitation', id: 'elicitation-r1-1', data: { ...asked, action: 'accept' } },
    ]);
    expect(message.parts.find((part) => part.type === 'tool-book_table')).toMatchObject({
      state: 'output-available',
      output: '{"action":"accept","content":{"name":"Ada","guests":2,"seating":"inside","highChair":false}}',
    });
  });

  it('sends an elicitation asked before the response began again with its action', () => {
    const path = [{ toolName: 'helper', toolCallId: 'c1' }];
    const pending = {
      requestId: 'c1/elicitation-1',
      toolCallId: 'h1',
      name: 'auth__login',
      message: 'Sign in.',
      mode: 'url' as const,
      url: 'https://example.com/login',
      path,
    };
    const mapper = new UiChunkMapper({ pendingElicitations: [pending] });
    expect(
      mapper.map({
        type: 'subagent-event',
        path,
        event: {
          type: 'elicitation-resolved',
          iteration: 1,
          requestId: 'c1/elicitation-1',
          toolCallId: 'h1',
          name: 'auth__login',
          action: 'cancel',
        },
      }),
    ).toEqual([{ type: 'data-agentloop-elicitation', id: 'c1/elicitation-1', data: { ...pending, action: 'cancel' } }]);
  });
});

import type { AgentResult } from '@agentloop/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOKING_FORM, body, bookTableTool, type TestServer, testServer } from '../test-support/test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const finish = (result: string) => ({ toolCalls: [{ name: 'task_completion', arguments: { result } }] });
const editCall = { id: 'c1', name: 'edit_file', arguments: { path: 'a.txt', old_text: 'a', new_text: 'b' } };
const userMessage = (text: string, id = 'u1') => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const chat = (id: string, text: string) => ({ id, trigger: 'submit-message', messages: [userMessage(text)] });

/** The approval answer a client sends: the assistant message with its tool part answered. */
function approvalAnswer(sessionId: string, approvalId: string, approved: boolean, reason?: string) {
  const messages: { id: string; role: string; parts: Record<string, unknown>[] }[] = [
    userMessage('Fix a.txt'),
    {
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        {
          type: 'tool-edit_file',
          toolCallId: 'c1',
          state: 'approval-responded',
          input: editCall.arguments,
          approval: { id: approvalId, approved, ...(reason === undefined ? {} : { reason }) },
        },
      ],
    },
  ];
  return { id: sessionId, trigger: 'submit-message', messageId: 'a1', messages };
}

/** The chunks of a UI message stream body, once it ended, and whether it ended with `[DONE]`. */
async function readStream(response: Response | undefined): Promise<{ chunks: any[]; done: boolean }> {
  if (!response) throw new Error('no response');
  const events = (await response.text()).split('\n\n').filter((event) => event !== '');
  const data = events.map((event) => event.replace(/^data: /, ''));
  const done = data.at(-1) === '[DONE]';
  return { chunks: (done ? data.slice(0, -1) : data).map((text) => JSON.parse(text)), done };
}

const types = (chunks: { type: string }[]) => chunks.map((chunk) => chunk.type);

/** Resolves with the result of the session's run once the server let it go (no response attached). */
function runEnd(test: TestServer, sessionId: string): Promise<AgentResult<unknown> | undefined> {
  return new Promise((resolve, reject) => {
    const attached = test.handler.runs.attach(sessionId, { onEvent: () => {}, onEnd: (end) => resolve(end.result) });
    if (!attached) reject(new Error(`session ${sessionId} runs nothing`));
  });
}

/** Resolves with the result of the first agent's next run end. */
function nextRunEnd(test: TestServer): Promise<AgentResult<unknown>> {
  const agent = test.agents[0];
  if (!agent) throw new Error('no agent');
  return new Promise((resolve) => agent.once('loop-end', (event) => resolve(event.result)));
}

describe('POST /api/chat', () => {
  it('streams a tool loop as a UI message stream and ends with [DONE]', async () => {
    server = testServer({
      scripts: {
        s1: [
          { text: 'Reading.', toolCalls: [{ id: 'c0', name: 'read_file', arguments: { path: 'a.txt' } }] },
          finish('a.txt holds text'),
        ],
      },
      chunkSize: 100,
    });
    const response = await server.request('/api/chat', { json: chat('s1', 'What is in a.txt?') });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const { chunks, done } = await readStream(response);
    expect(done).toBe(true);
    expect(types(chunks)).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-delta',
      'text-end',
      'message-metadata',
      'tool-input-start',
      'tool-input-available',
      'tool-output-available',
      'finish-step',
      'start-step',
      'message-metadata',
      'text-start',
      'text-delta',
      'text-end',
      'data-agentloop-result',
      'finish-step',
      'finish',
    ]);
    expect(chunks[0]).toEqual({
      type: 'start',
      messageId: chunks[0].messageMetadata.runId,
      messageMetadata: expect.any(Object),
    });
    expect(chunks[8]).toEqual({ type: 'tool-output-available', toolCallId: 'c0', output: 'contents of a.txt' });
    expect(chunks.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: { exit: 'task_completion' },
    });
    expect(server.providers.get('s1')?.lastMessage(0)).toMatchObject({ role: 'user' });
  });

  it('ends the response at an approval request and continues the same run with the answer', async () => {
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall] }, finish('fixed')] } });
    const first = await readStream(await server.request('/api/chat', { json: chat('s1', 'Fix a.txt') }));
    expect(first.done).toBe(true);
    expect(types(first.chunks).slice(-5)).toEqual([
      'tool-input-available',
      'data-agentloop-approval',
      'tool-approval-request',
      'finish-step',
      'finish',
    ]);
    const request = first.chunks.find((chunk) => chunk.type === 'tool-approval-request');
    expect(request).toEqual({ type: 'tool-approval-request', approvalId: 'approval-run-1-1', toolCallId: 'c1' });
    expect(first.chunks.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'tool-calls',
      messageMetadata: { usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } },
    });
    // The run waits apart from any response.
    expect(server.handler.runs.runCount).toBe(1);
    expect(server.handler.runs.listenerCount).toBe(0);

    const second = await server.request('/api/chat', { json: approvalAnswer('s1', 'approval-run-1-1', true) });
    expect(second.status).toBe(200);
    const rest = await readStream(second);
    expect(rest.chunks[0]).toEqual({
      type: 'start',
      messageMetadata: { runId: first.chunks[0].messageMetadata.runId },
    });
    expect(rest.chunks).toContainEqual({ type: 'tool-output-available', toolCallId: 'c1', output: 'edited a.txt' });
    expect(rest.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(server.written).toEqual(['a.txt: b']);
    // The answer continued the run: one agent, one run, no run left.
    expect(server.agents).toHaveLength(1);
    expect(server.handler.runs.runCount).toBe(0);
  });

  it('keeps the response open while a tool’s elicitation waits, and the route’s answer reaches the tool', async () => {
    server = testServer({
      scripts: {
        s1: [{ toolCalls: [{ id: 'c1', name: 'book_table', arguments: { mode: 'url' } }] }, finish('booked')],
      },
      tools: () => [bookTableTool],
    });
    const response = await server.request('/api/chat', { json: chat('s1', 'Book a table') });
    const reading = readStream(response);
    await vi.waitFor(() => expect(server?.handler.runs.snapshot('s1')?.elicitations).toHaveLength(1), {
      timeout: 20_000,
    });
    // Still attached: the response waits with the run.
    expect(server.handler.runs.listenerCount).toBe(1);
    const answer = await server.request('/api/sessions/s1/elicitations/elicitation-run-1-1', {
      json: { action: 'accept' },
    });
    expect(await body(answer)).toEqual({ answered: true, requestId: 'elicitation-run-1-1', action: 'accept' });
    const { chunks, done } = await reading;
    expect(done).toBe(true);
    const asked = {
      requestId: 'elicitation-run-1-1',
      toolCallId: 'c1',
      name: 'book_table',
      server: 'bookings',
      message: 'Sign in to the booking site.',
      mode: 'url',
      url: 'https://bookings.example.com/sign-in?session=1',
      path: [],
      expiresAt: expect.stringMatching(/^\d{4}-/),
    };
    expect(chunks.filter((chunk) => chunk.type === 'data-agentloop-elicitation')).toEqual([
      { type: 'data-agentloop-elicitation', id: 'elicitation-run-1-1', data: asked },
      { type: 'data-agentloop-elicitation', id: 'elicitation-run-1-1', data: { ...asked, action: 'accept' } },
    ]);
    expect(chunks).toContainEqual({
      type: 'tool-output-available',
      toolCallId: 'c1',
      output: '{"action":"accept","content":{}}',
    });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(server.handler.runs.runCount).toBe(0);
  });

  it('lists a waiting elicitation in the messages a chat starts from after a reload', async () => {
    server = testServer({
      scripts: { s1: [{ toolCalls: [{ id: 'c1', name: 'book_table', arguments: {} }] }, finish('booked')] },
      tools: () => [bookTableTool],
    });
    const reading = readStream(await server.request('/api/chat', { json: chat('s1', 'Book a table') }));
    await vi.waitFor(() => expect(server?.handler.runs.snapshot('s1')?.elicitations).toHaveLength(1), {
      timeout: 20_000,
    });
    const { messages } = await body(await server.request('/api/chat/s1/messages'));
    expect(messages.at(-1).parts).toEqual([
      { type: 'step-start' },
      {
        type: 'data-agentloop-elicitation',
        id: 'elicitation-run-1-1',
        data: {
          requestId: 'elicitation-run-1-1',
          toolCallId: 'c1',
          name: 'book_table',
          server: 'bookings',
          message: 'Which table?',
          mode: 'form',
          schema: BOOKING_FORM,
          path: [],
          expiresAt: expect.stringMatching(/^\d{4}-/),
        },
      },
    ]);
    await server.request('/api/sessions/s1/elicitations/elicitation-run-1-1', { json: { action: 'decline' } });
    expect((await reading).chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it("lists the running turn's user message, which the store has only once the run commits", async () => {
    server = testServer({
      scripts: {
        s1: [finish('ready'), { toolCalls: [{ id: 'c1', name: 'book_table', arguments: {} }] }, finish('booked')],
      },
      tools: () => [bookTableTool],
    });
    await readStream(await server.request('/api/chat', { json: chat('s1', 'Get ready') }));
    const reading = readStream(await server.request('/api/chat', { json: chat('s1', 'Book a table') }));
    await vi.waitFor(() => expect(server?.handler.runs.snapshot('s1')?.elicitations).toHaveLength(1), {
      timeout: 20_000,
    });
    const { messages } = await body(await server.request('/api/chat/s1/messages'));
    expect(messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(messages[2]).toEqual({
      id: expect.stringMatching(/^s1-\d+$/),
      role: 'user',
      parts: [{ type: 'text', text: 'Book a table', state: 'done' }],
    });
    await server.request('/api/sessions/s1/elicitations/elicitation-run-2-1', { json: { action: 'decline' } });
    expect((await reading).chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    // Once committed, the stored message stands in its place, once, with the same id.
    const after = await body(await server.request('/api/chat/s1/messages'));
    expect(after.messages[2]).toEqual(messages[2]);
    expect(after.messages.filter((message: { role: string }) => message.role === 'user')).toHaveLength(2);
  });

  it('ends a continued response again at an approval the client left unanswered', async () => {
    const second = { id: 'c2', name: 'edit_file', arguments: { path: 'b.txt', old_text: 'a', new_text: 'c' } };
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall, second] }, finish('fixed both')] } });
    const first = await readStream(await server.request('/api/chat', { json: chat('s1', 'Fix a.txt and b.txt') }));
    expect(first.chunks.filter((chunk) => chunk.type === 'tool-approval-request')).toEqual([
      { type: 'tool-approval-request', approvalId: 'approval-run-1-1', toolCallId: 'c1' },
      { type: 'tool-approval-request', approvalId: 'approval-run-1-2', toolCallId: 'c2' },
    ]);
    // Only the first is answered; the second tool part is still waiting in the message the client sends.
    const partial = approvalAnswer('s1', 'approval-run-1-1', true);
    partial.messages[1]?.parts.push({
      type: 'tool-edit_file',
      toolCallId: 'c2',
      state: 'approval-requested',
      input: second.arguments,
      approval: { id: 'approval-run-1-2' },
    });
    const middle = await readStream(await server.request('/api/chat', { json: partial }));
    expect(types(middle.chunks).slice(1)).toEqual(['tool-output-available', 'finish']);
    expect(middle.chunks.at(-1)).toMatchObject({ finishReason: 'tool-calls' });
    expect(server.handler.runs.snapshot('s1')?.approvals.map((approval) => approval.requestId)).toEqual([
      'approval-run-1-2',
    ]);
    const last = await readStream(
      await server.request('/api/chat', { json: approvalAnswer('s1', 'approval-run-1-2', true) }),
    );
    expect(last.chunks.at(-1)).toMatchObject({ finishReason: 'stop' });
    expect(server.written.sort()).toEqual(['a.txt: b', 'b.txt: c']);
  });

  it('denies the call with the user’s reason when the answer is a denial', async () => {
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall] }, finish('left it')] } });
    await readStream(await server.request('/api/chat', { json: chat('s1', 'Fix a.txt') }));
    const rest = await readStream(
      await server.request('/api/chat', { json: approvalAnswer('s1', 'approval-run-1-1', false, 'Not that file') }),
    );
    expect(rest.chunks).toContainEqual({ type: 'tool-output-denied', toolCallId: 'c1' });
    expect(types(rest.chunks)).not.toContain('tool-output-error');
    expect(server.written).toEqual([]);
    const toolResult = server.providers.get('s1')?.lastMessage(1);
    expect(JSON.stringify(toolResult)).toContain('Not that file');
  });

  it('answers a late approval of a timed-out request with a 404 that says why', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall] }, finish('gave up')] }, approvalTimeoutMs: 60_000 });
    await readStream(await server.request('/api/chat', { json: chat('s1', 'Fix a.txt') }));
    const ended = runEnd(server, 's1');
    await vi.advanceTimersByTimeAsync(60_000);
    expect((await ended)?.exit).toBe('task_completion');
    expect(server.written).toEqual([]);
    const late = await server.request('/api/chat', { json: approvalAnswer('s1', 'approval-run-1-1', true) });
    expect(late.status).toBe(404);
    expect((await body(late)).error.message).toBe(
      'Session s1 has no run waiting for these approvals: they timed out and were denied, or the run ended. GET /api/sessions/s1 shows the conversation as it is.',
    );
  });

  it('refuses a new message while the session runs with a 409 naming the run', async () => {
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall] }, finish('fixed')] } });
    const first = await readStream(await server.request('/api/chat', { json: chat('s1', 'Fix a.txt') }));
    const runId = first.chunks[0].messageMetadata.runId;
    const second = await server.request('/api/chat', { json: chat('s1', 'Something else') });
    expect(second.status).toBe(409);
    expect((await body(second)).error).toMatchObject({ code: 'session_busy', runId, sessionId: 's1' });
    await readStream(await server.request('/api/chat', { json: approvalAnswer('s1', 'approval-run-1-1', true) }));
  });

  it('answers a question with the next message, as a new run of the same session', async () => {
    server = testServer({
      scripts: {
        s1: [
          { toolCalls: [{ name: 'ask_question', arguments: { question: 'Which file?', suggestions: ['a.txt'] } }] },
          finish('read a.txt'),
        ],
      },
    });
    const first = await readStream(await server.request('/api/chat', { json: chat('s1', 'Read a file') }));
    expect(first.chunks).toContainEqual({
      type: 'data-agentloop-question',
      data: { question: 'Which file?', suggestions: ['a.txt'] },
    });
    expect(first.chunks.at(-1)).toMatchObject({ messageMetadata: { exit: 'ask_question' } });
    const second = await readStream(await server.request('/api/chat', { json: chat('s1', 'a.txt') }));
    expect(second.chunks.at(-1)).toMatchObject({ messageMetadata: { exit: 'task_completion' } });
    expect(server.providers.get('s1')?.lastMessage(1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(server.providers.get('s1')?.lastMessage(1))).toContain('a.txt');
  });

  it('cancels the run when the client drops the response (onDisconnect: cancel)', async () => {
    server = testServer({ scripts: { s1: [{ text: 'Working', hang: true }] } });
    const response = await server.request('/api/chat', { json: chat('s1', 'Go') });
    const ended = nextRunEnd(server);
    const reader = response.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    expect((await ended).exit).toBe('cancelled');
    expect(server.handler.runs.listenerCount).toBe(0);
  });

  it('lets the run go on when the client drops the response with onDisconnect: continue', async () => {
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall] }, finish('fixed')] }, onDisconnect: 'continue' });
    const response = await server.request('/api/chat', { json: chat('s1', 'Fix a.txt') });
    const agent = server.agents[0];
    if (!agent) throw new Error('no agent');
    const asked = server.handler.runs.snapshot('s1')?.approvals.length
      ? Promise.resolve()
      : new Promise((resolve) => agent.once('approval-requested', resolve));
    await response.body?.cancel();
    await asked;
    expect(server.handler.runs.runCount).toBe(1);
    const ended = runEnd(server, 's1');
    await server.request('/api/sessions/s1/approvals/approval-run-1-1', { json: { decision: 'allow-once' } });
    expect((await ended)?.exit).toBe('task_completion');
    expect(server.written).toEqual(['a.txt: b']);
  });

  it('keeps another principal’s session from view: 404 as for a missing one', async () => {
    server = testServer({
      scripts: { '*': [finish('mine')] },
      authenticate: (request) => {
        const user = request.headers.get('x-user');
        return user ? { id: user } : undefined;
      },
    });
    const own = await server.request('/api/chat', { json: chat('s1', 'Go'), headers: { 'x-user': 'ann' } });
    expect((await readStream(own)).done).toBe(true);
    const other = await server.request('/api/chat', { json: chat('s1', 'Go'), headers: { 'x-user': 'bob' } });
    expect(other.status).toBe(404);
    expect((await body(other)).error).toEqual({
      code: 'not_found',
      message: 'No session s1: list yours with GET /api/sessions.',
    });
    const ownMessages = await server.request('/api/chat/s1/messages', { headers: { 'x-user': 'ann' } });
    expect((await body(ownMessages)).messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
    ]);
    const otherMessages = await server.request('/api/chat/s1/messages', { headers: { 'x-user': 'bob' } });
    expect(otherMessages.status).toBe(404);
    const missing = await server.request('/api/chat/s9/messages', { headers: { 'x-user': 'ann' } });
    expect(missing.status).toBe(404);
  });

  it('refuses a wrong token and a body that is not a chat request, saying what is wrong', async () => {
    server = testServer({ scripts: {} });
    const wrongToken = await server.request('/api/chat', {
      json: chat('s1', 'Go'),
      headers: { authorization: 'Bearer wrong-token-0123456789' },
    });
    expect(wrongToken.status).toBe(401);
    const bad = await server.request('/api/chat', { json: { id: 's1', messages: [] } });
    expect(bad.status).toBe(400);
    expect((await body(bad)).error).toEqual({
      code: 'invalid_body',
      message: 'The body of a chat request is not valid: messages: send at least the new message.',
    });
    expect(server.handler.runs.runCount).toBe(0);
  });
});

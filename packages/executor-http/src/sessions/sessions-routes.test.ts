import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  allEvents,
  BOOKING_FORM,
  body,
  bookTableTool,
  runInput,
  sseEvents,
  type TestServer,
  testServer,
} from '../test-support/test-server.js';

// Waits on what the server does, not on a clock: the limit only stops a test that would hang, on a loaded machine.
const WAIT = { timeout: 20_000 };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const finish = (result: string) => ({ toolCalls: [{ name: 'task_completion', arguments: { result } }] });

/** A server whose users say who they are in an `x-user` header (an app's own sign-in would). */
function multiUserServer() {
  return testServer({
    scripts: { '*': [finish('done')] },
    authenticate: (request) => {
      const user = request.headers.get('x-user');
      return user ? { id: user } : undefined;
    },
  });
}

const as = (user: string) => ({ headers: { 'x-user': user } });

const edit = (id: string) => ({
  toolCalls: [{ id, name: 'edit_file', arguments: { path: 'a.txt', old_text: 'a', new_text: 'b' } }],
});

/** Reads a run's events up to its approval request, and returns the request's id with the rest of the stream. */
async function untilApproval(response: Response) {
  const events = sseEvents(response);
  // next(), not a for-await loop: leaving one with break would cancel the response body.
  for (let next = await events.next(); !next.done; next = await events.next()) {
    const value = next.value as { type: string; name?: string; value?: { requestId: string } };
    if (value.type === 'CUSTOM' && value.name === 'agentloop.approval-requested' && value.value) {
      return { requestId: value.value.requestId, events };
    }
  }
  throw new Error('the run ended without an approval request');
}

async function drain(events: AsyncGenerator<Record<string, unknown>>): Promise<Record<string, unknown>[]> {
  const rest: Record<string, unknown>[] = [];
  for await (const event of events) rest.push(event);
  return rest;
}

describe('the session routes', () => {
  it("scopes sessions to their principal: another's is a 404 everywhere, like a missing one", async () => {
    server = multiUserServer();
    await allEvents(await server.request('/api/agui', { json: runInput('alice-1', 'hi'), ...as('alice') }));
    expect((await body(await server.request('/api/sessions', as('alice')))).sessions).toMatchObject([
      { id: 'alice-1' },
    ]);
    expect((await body(await server.request('/api/sessions', as('bob')))).sessions).toEqual([]);

    const read = await server.request('/api/sessions/alice-1', as('bob'));
    expect(read.status).toBe(404);
    expect(await body(read)).toEqual({
      error: { code: 'not_found', message: 'No session alice-1: list yours with GET /api/sessions.' },
    });
    expect((await server.request('/api/sessions/alice-1/cancel', { method: 'POST', ...as('bob') })).status).toBe(404);
    const answer = await server.request('/api/sessions/alice-1/approvals/a1', {
      json: { decision: 'allow-once' },
      ...as('bob'),
    });
    expect(answer.status).toBe(404);
    const resume = await server.request('/api/agui', { json: runInput('alice-1', 'take over'), ...as('bob') });
    expect(resume.status).toBe(404);
    expect(server.agents).toHaveLength(1);
    expect((await server.request('/api/sessions/never-made', as('bob'))).status).toBe(404);
    expect((await server.request('/api/sessions', { headers: {} })).status).toBe(401);
  });

  it("lists the principal's sessions newest first, without the ownership records", async () => {
    server = multiUserServer();
    for (const id of ['first', 'second', 'third']) {
      await allEvents(await server.request('/api/agui', { json: runInput(id, `task ${id}`), ...as('alice') }));
    }
    const { sessions } = await body(await server.request('/api/sessions', as('alice')));
    expect(sessions.map((session: { id: string }) => session.id)).toEqual(['third', 'second', 'first']);
    expect(sessions[0]).toMatchObject({ title: 'task third', turnCount: 1, messageCount: 3, running: null });
    const limited = await body(await server.request('/api/sessions?limit=1', as('alice')));
    expect(limited.sessions.map((session: { id: string }) => session.id)).toEqual(['third']);
    const bad = await server.request('/api/sessions?limit=lots', as('alice'));
    expect(bad.status).toBe(400);
    expect((await body(bad)).error.message).toBe('limit="lots" is not valid: give a whole number from 1 to 1000.');
  });

  it('reads a session back with its messages, to re-attach after a reload', async () => {
    server = testServer({ scripts: { s1: [finish('all done')] } });
    await allEvents(await server.request('/api/agui', { json: runInput('s1', 'do it') }));
    const session = await body(await server.request('/api/sessions/s1'));
    expect(session).toMatchObject({
      session: { id: 's1', title: 'do it', running: null },
      pendingQuestion: null,
      run: null,
    });
    expect(session.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('shows the input of a run that has not committed yet, and lists its session titled from it', async () => {
    server = testServer({ scripts: { s1: [edit('c1'), finish('edited')] } });
    const input = 'Fix   a.txt\nplease';
    const waiting = await untilApproval(await server.request('/api/agui', { json: runInput('s1', input, 'run-a') }));
    const session = await body(await server.request('/api/sessions/s1'));
    // The store has the session's turn only once the run commits it: the run says what started it.
    expect(session.messages).toEqual([]);
    expect(session.run).toMatchObject({ runId: 'run-a', input });
    expect(session.session).toMatchObject({ id: 's1', title: 'Fix a.txt please', running: 'run-a' });
    const { sessions } = await body(await server.request('/api/sessions'));
    expect(sessions).toEqual([expect.objectContaining({ id: 's1', title: 'Fix a.txt please', running: 'run-a' })]);

    await server.request(`/api/sessions/s1/approvals/${waiting.requestId}`, { json: { decision: 'allow-once' } });
    expect((await drain(waiting.events)).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    const saved = await body(await server.request('/api/sessions/s1'));
    expect(saved.run).toBeNull();
    expect(saved.messages[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: input }] });
  });

  it('lists a running session the store does not list yet, newest first, with a title cut at 80 characters', async () => {
    server = testServer({ scripts: { old: [finish('done')], s1: [edit('c1'), finish('edited')] } });
    await allEvents(await server.request('/api/agui', { json: runInput('old', 'an older task') }));
    const input = `Rename ${'every_variable_'.repeat(10)}`;
    const waiting = await untilApproval(await server.request('/api/agui', { json: runInput('s1', input, 'run-b') }));
    // A store that lists a session only once its first turn is committed.
    const stored = await server.store.list();
    vi.spyOn(server.store, 'list').mockResolvedValue(stored.filter((info) => info.id !== 's1'));
    const { sessions } = await body(await server.request('/api/sessions'));
    expect(sessions.map((session: { id: string }) => session.id)).toEqual(['s1', 'old']);
    const title = `${[...input].slice(0, 79).join('')}…`;
    expect(sessions[0]).toEqual({
      id: 's1',
      title,
      model: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      turnCount: 0,
      messageCount: 0,
      tokenCount: 0,
      running: 'run-b',
    });
    expect(sessions[1]).toMatchObject({ title: 'an older task', running: null });
    const limited = await body(await server.request('/api/sessions?limit=1'));
    expect(limited.sessions.map((session: { id: string }) => session.id)).toEqual(['s1']);

    await server.request(`/api/sessions/s1/approvals/${waiting.requestId}`, { json: { decision: 'allow-once' } });
    await drain(waiting.events);
  });

  it('says what is wrong with an approval answer, and which approvals are not pending', async () => {
    server = testServer({ scripts: {} });
    const bad = await server.request('/api/sessions/s1/approvals/a1', { json: { decision: 'maybe' } });
    expect(bad.status).toBe(400);
    const { error } = await body(bad);
    expect(error.code).toBe('invalid_body');
    expect(error.message).toBe(
      "The body of an approval answer is not valid: decision: Invalid discriminator value. Expected 'allow-once' | 'allow-session' | 'deny'.",
    );
    const none = await server.request('/api/sessions/s1/approvals/a1', { json: { decision: 'allow-once' } });
    expect(none.status).toBe(404);
    expect((await body(none)).error.message).toBe(
      'Session s1 has no pending approval a1: it was answered, timed out, or its run ended. GET /api/sessions/s1 shows what is pending.',
    );
    const badId = await server.request('/api/sessions/.hidden');
    expect(badId.status).toBe(400);
    expect(await body(await server.request('/api/sessions/s1/cancel', { method: 'POST' }))).toEqual({
      cancelled: false,
    });
  });

  it("refuses an answer to an earlier run's approval: it cannot answer the next run's request", async () => {
    server = testServer({ scripts: { s1: [edit('c1'), edit('c2'), finish('edited')] } });
    const first = await untilApproval(await server.request('/api/agui', { json: runInput('s1', 'edit a', 'run-a') }));
    await server.request('/api/sessions/s1/cancel', { method: 'POST' });
    await drain(first.events);

    const second = await untilApproval(await server.request('/api/agui', { json: runInput('s1', 'again', 'run-b') }));
    expect(second.requestId).not.toBe(first.requestId);
    const stale = await server.request(`/api/sessions/s1/approvals/${first.requestId}`, {
      json: { decision: 'allow-once' },
    });
    expect(stale.status).toBe(404);
    expect((await body(stale)).error.message).toBe(
      `Session s1 has no pending approval ${first.requestId}: it was answered, timed out, or its run ended. GET /api/sessions/s1 shows what is pending.`,
    );
    expect(server.written).toEqual([]);
    expect(server.handler.runs.snapshot('s1')?.approvals.map((approval) => approval.requestId)).toEqual([
      second.requestId,
    ]);

    const answer = await server.request(`/api/sessions/s1/approvals/${second.requestId}`, {
      json: { decision: 'allow-once' },
    });
    expect(answer.status).toBe(200);
    expect((await drain(second.events)).at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    expect(server.written).toEqual(['a.txt: b']);
  });
});

describe('POST /api/sessions/:id/elicitations/:requestId', () => {
  const bookCall = (id: string) => ({ toolCalls: [{ id, name: 'book_table', arguments: {} }] });

  /** A server whose principals say who they are in `x-user`, with a run of `alice`'s waiting on a form. */
  async function untilAsked(script = [bookCall('c1'), finish('booked')]) {
    server = testServer({
      scripts: { s1: script },
      tools: () => [bookTableTool],
      authenticate: (request) => {
        const user = request.headers.get('x-user');
        return user ? { id: user } : undefined;
      },
    });
    const response = await server.request('/api/agui', { json: runInput('s1', 'book a table'), ...as('alice') });
    const events = allEvents(response);
    await vi.waitFor(async () => {
      const session = await body(await server?.request('/api/sessions/s1', as('alice')));
      expect(session.run?.elicitations).toHaveLength(1);
    }, WAIT);
    // Wrapped: an async function returning the promise itself would wait for the run to end.
    return { events };
  }

  const answer = (json: unknown, user = 'alice', requestId = 'elicitation-run-1-1') =>
    server?.request(`/api/sessions/s1/elicitations/${requestId}`, { json, ...as(user) }) ?? Promise.reject();

  const toolResult = (events: Record<string, unknown>[]) =>
    events.find((event) => event.type === 'TOOL_CALL_RESULT' && event.toolCallId === 'c1')?.content;

  it('lists the waiting form in the session, and sends the answer with the defaults filled in', async () => {
    const { events } = await untilAsked();
    const session = await body(await server?.request('/api/sessions/s1', as('alice')));
    expect(session.run.elicitations).toEqual([
      {
        requestId: 'elicitation-run-1-1',
        toolCallId: 'c1',
        name: 'book_table',
        server: 'bookings',
        message: 'Which table?',
        mode: 'form',
        schema: BOOKING_FORM,
        path: [],
        expiresAt: expect.any(Number),
      },
    ]);
    const answered = await answer({
      action: 'accept',
      content: { name: 'Ada', guests: 4, extras: ['cake', 'candles'] },
    });
    expect(answered.status).toBe(200);
    expect(await body(answered)).toEqual({ answered: true, requestId: 'elicitation-run-1-1', action: 'accept' });
    expect(JSON.parse(toolResult(await events) as string)).toEqual({
      action: 'accept',
      content: { name: 'Ada', guests: 4, extras: ['cake', 'candles'], seating: 'inside', highChair: false },
    });
    expect(server?.handler.runs.runCount).toBe(0);
    expect(server?.agentListeners()).toBe(0);
    expect((await body(await server?.request('/api/sessions/s1', as('alice')))).run).toBeNull();
  });

  it('sends a decline, and a cancel', async () => {
    const { events } = await untilAsked([bookCall('c1'), bookCall('c2'), finish('no table')]);
    expect(await body(await answer({ action: 'decline' }))).toEqual({
      answered: true,
      requestId: 'elicitation-run-1-1',
      action: 'decline',
    });
    await vi.waitFor(
      async () => expect((await answer({ action: 'cancel' }, 'alice', 'elicitation-run-1-2')).status).toBe(200),
      WAIT,
    );
    const all = await events;
    const results = all.filter((event) => event.type === 'TOOL_CALL_RESULT').map((event) => event.content);
    expect(results).toEqual(['{"action":"decline"}', '{"action":"cancel"}']);
  });

  it('refuses a form with its required field empty with a 400 naming it, and waits for a good answer', async () => {
    const { events } = await untilAsked();
    const refused = await answer({ action: 'accept', content: { guests: 3 } });
    expect(refused.status).toBe(400);
    expect((await body(refused)).error).toMatchObject({
      code: 'invalid_body',
      message:
        'The elicitation answer leaves required field "name" empty: fill it in, or answer with decline or cancel.',
      fields: ['name'],
    });
    expect((await answer({ action: 'accept', content: { name: 'Grace' } })).status).toBe(200);
    expect(toolResult(await events)).toContain('"name":"Grace"');
  });

  it('says what is wrong with a body that is not an elicitation answer', async () => {
    const { events } = await untilAsked();
    const badAction = await answer({ action: 'maybe' });
    expect(badAction.status).toBe(400);
    expect((await body(badAction)).error.message).toMatch(/^The body of an elicitation answer is not valid: action: /);
    const badValue = await answer({ action: 'accept', content: { name: { first: 'Ada' }, guests: [1] } });
    expect(badValue.status).toBe(400);
    const { message } = (await body(badValue)).error;
    expect(message).toContain('content.name: ');
    expect(message).toContain('content.guests: ');
    expect((await answer({ action: 'decline' })).status).toBe(200);
    await events;
  });

  it('answers 404 for an unknown id, one answered already, and another principal’s session', async () => {
    const { events } = await untilAsked();
    const unknown = await answer({ action: 'decline' }, 'alice', 'elicitation-9');
    expect(unknown.status).toBe(404);
    expect((await body(unknown)).error).toEqual({
      code: 'not_found',
      message:
        'Session s1 has no pending elicitation elicitation-9: it was answered, timed out, or its tool call or run ended. GET /api/sessions/s1 shows what is pending.',
    });
    const stranger = await answer({ action: 'accept', content: { name: 'Mallory' } }, 'bob');
    expect(stranger.status).toBe(404);
    expect((await body(stranger)).error.message).toBe('No session s1: list yours with GET /api/sessions.');
    expect((await answer({ action: 'decline' })).status).toBe(200);
    expect((await answer({ action: 'decline' })).status).toBe(404);
    expect(toolResult(await events)).toBe('{"action":"decline"}');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { allEvents, body, runInput, sseEvents, type TestServer, testServer } from '../test-support/test-server.js';

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

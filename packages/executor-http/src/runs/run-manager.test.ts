import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent, AgentEvent } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider, type ScriptStep } from '@agentloop/core/testing';
import { JsonlSessionStore } from '@agentloop/sessions';
import { describe, expect, it, vi } from 'vitest';
import { askForWrites, BOOKING_FORM, bookTableTool, editTool } from '../test-support/test-server.js';
import type { RunEnd, RunListener } from './run-listener.js';
import { RunManager } from './run-manager.js';

// Waits on what the server does, not on a clock: the limit only stops a test that would hang, on a loaded machine.
const WAIT = { timeout: 20_000 };

const principal = { id: 'p1' };
const editCall = (id: string) => ({
  id,
  name: 'edit_file',
  arguments: { path: `${id}.ts`, old_text: 'a', new_text: 'b' },
});
const finish = { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] };

function recorder() {
  const events: AgentEvent[] = [];
  let end: RunEnd | undefined;
  let ended: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const listener: RunListener = {
    onEvent: (event) => events.push(event),
    onEnd: (runEnd) => {
      end = runEnd;
      ended();
    },
  };
  return { listener, events, done, end: () => end };
}

function editingAgent(written: string[], steps = [{ toolCalls: [editCall('c1')] }, finish]): Agent {
  const agent = new DefaultAgent(new ScriptedProvider(steps), { approval: askForWrites });
  return agent.registerTool(editTool(written));
}

describe('RunManager', () => {
  it('keeps the events that come while no listener is attached, and hands them to the next one', async () => {
    const written: string[] = [];
    const runs = new RunManager({ createAgent: () => editingAgent(written) });
    const first = recorder();
    const attachment = await runs.start({ sessionId: 's1', principal, input: 'edit', listener: first.listener });
    await vi.waitFor(() => expect(runs.snapshot('s1')?.approvals).toHaveLength(1), WAIT);
    // The AI SDK's response ends at an approval request: on purpose, so the run goes on.
    attachment.detach('done');
    const requestId = runs.snapshot('s1')?.approvals[0]?.requestId ?? '';
    // The next request answers, then attaches, in one go: what came in between waits for it.
    expect(runs.answerApproval('s1', requestId, { decision: 'allow-once' })).toBe(true);
    const second = recorder();
    expect(runs.attach('s1', second.listener)?.runId).toBe(attachment.runId);
    await second.done;
    expect(written).toEqual(['c1.ts: b']);
    expect(second.events.map((event) => event.type)).toContain('approval-resolved');
    expect(second.events.at(-1)?.type).toBe('loop-end');
    expect(second.end()?.result?.exit).toBe('task_completion');
    expect(first.events.map((event) => event.type)).not.toContain('approval-resolved');
    expect(runs.runCount).toBe(0);
    expect(runs.attach('s1', second.listener)).toBeUndefined();
  });

  it('keeps only the last maxBufferedEvents while detached, says how many it dropped, and keeps what waits', async () => {
    const written: string[] = [];
    const all: AgentEvent[] = [];
    let secondAsked: () => void = () => {};
    const asked = new Promise<void>((resolve) => {
      secondAsked = resolve;
    });
    const runs = new RunManager({
      maxBufferedEvents: 5,
      createAgent: () => {
        const steps = [
          { toolCalls: [editCall('c1')] },
          { text: 'Now the second file, as you asked.', toolCalls: [editCall('c2')] },
          finish,
        ];
        const agent = new DefaultAgent(new ScriptedProvider(steps, { chunkSize: 4 }), { approval: askForWrites });
        agent.onAny((event) => {
          all.push(event);
          if (event.type === 'approval-requested' && event.toolCallId === 'c2') secondAsked();
        });
        return agent.registerTool(editTool(written));
      },
    });
    const first = recorder();
    const attachment = await runs.start({ sessionId: 's1', principal, input: 'edit', listener: first.listener });
    await vi.waitFor(() => expect(runs.snapshot('s1')?.approvals).toHaveLength(1), WAIT);
    attachment.detach('done');
    const firstId = runs.snapshot('s1')?.approvals[0]?.requestId ?? '';
    runs.answerApproval('s1', firstId, { decision: 'allow-once' });
    // Nobody listens while the first edit runs and the model streams its reply up to the second approval.
    await asked;
    const detachedEvents = all.slice(all.findIndex((event) => event.type === 'approval-resolved'));
    expect(detachedEvents.length).toBeGreaterThan(5);

    const second = recorder();
    const reattached = runs.attach('s1', second.listener);
    expect(reattached?.droppedEvents).toBe(detachedEvents.length - 5);
    expect(second.events).toEqual(detachedEvents.slice(-5));
    // What the run waits on is kept apart from the events: a client that rebuilds reads it back.
    const pending = runs.snapshot('s1')?.approvals ?? [];
    expect(pending.map((approval) => approval.toolCallId)).toEqual(['c2']);
    runs.answerApproval('s1', pending[0]?.requestId ?? '', { decision: 'allow-once' });
    await second.done;
    expect(second.events.at(-1)?.type).toBe('loop-end');
    expect(written).toEqual(['c1.ts: b', 'c2.ts: b']);
  });

  it('refuses a maxBufferedEvents that is not a whole number of events', () => {
    expect(() => new RunManager({ createAgent: () => editingAgent([]), maxBufferedEvents: -1 })).toThrow(
      'maxBufferedEvents must be a whole number of events, 0 or more; got -1.',
    );
  });

  it('remembers allow-session answers for the rest of the run', async () => {
    const written: string[] = [];
    const runs = new RunManager({
      createAgent: () =>
        editingAgent(written, [{ toolCalls: [editCall('c1')] }, { toolCalls: [editCall('c2')] }, finish]),
    });
    const record = recorder();
    await runs.start({ sessionId: 's1', principal, input: 'edit twice', listener: record.listener });
    await vi.waitFor(() => expect(runs.snapshot('s1')?.approvals).toHaveLength(1), WAIT);
    runs.answerApproval('s1', runs.snapshot('s1')?.approvals[0]?.requestId ?? '', { decision: 'allow-session' });
    await record.done;
    expect(written).toEqual(['c1.ts: b', 'c2.ts: b']);
    expect(record.events.filter((event) => event.type === 'approval-requested')).toHaveLength(1);
  });

  it('answers false for an approval it does not hold, and for a session without a run', async () => {
    const runs = new RunManager({ createAgent: () => editingAgent([]) });
    expect(runs.answerApproval('s1', 'nope', { decision: 'allow-once' })).toBe(false);
    expect(runs.cancel('s1')).toBe(false);
    expect(runs.snapshot('s1')).toBeUndefined();
    const record = recorder();
    await runs.start({ sessionId: 's1', principal, input: 'edit', listener: record.listener });
    await vi.waitFor(() => expect(runs.snapshot('s1')?.approvals).toHaveLength(1), WAIT);
    expect(runs.answerApproval('s1', 'nope', { decision: 'allow-once' })).toBe(false);
    expect(runs.cancel('s1')).toBe(true);
    await record.done;
    expect(record.end()?.result?.exit).toBe('cancelled');
  });

  it('does not cancel a run whose dropped listener was not the last one', async () => {
    const runs = new RunManager({ createAgent: () => editingAgent([]) });
    const first = recorder();
    const attachment = await runs.start({ sessionId: 's1', principal, input: 'edit', listener: first.listener });
    const second = recorder();
    runs.attach('s1', second.listener);
    attachment.detach('dropped');
    expect(runs.runCount).toBe(1);
    expect(runs.listenerCount).toBe(1);
    await runs.close();
    expect(second.end()?.result?.exit).toBe('cancelled');
    expect(runs.runCount).toBe(0);
  });

  it('frees the session when createAgent fails, with a 503 that keeps the cause', async () => {
    const cause = new Error('no provider configured');
    const runs = new RunManager({ createAgent: () => Promise.reject(cause) });
    await expect(runs.start({ sessionId: 's1', principal, input: 'x' })).rejects.toMatchObject({
      code: 'agent_unavailable',
      statusCode: 503,
      cause,
    });
    expect(runs.runCount).toBe(0);
    expect(runs.listenerCount).toBe(0);
  });

  it('ends with the error when the agent cannot run, so the listener hears of it', async () => {
    const agent = editingAgent([]);
    agent.run = () => Promise.reject(new Error('session locked'));
    const runs = new RunManager({ createAgent: () => agent });
    const record = recorder();
    await runs.start({ sessionId: 's1', principal, input: 'x', listener: record.listener });
    await record.done;
    expect(record.end()).toEqual({ error: new Error('session locked') });
    expect(runs.runCount).toBe(0);
  });
});

describe('RunManager across runs of a session', () => {
  it('keeps an allow-session answer for the later runs, which show no approval request', async () => {
    const written: string[] = [];
    const provider = new ScriptedProvider([
      { toolCalls: [editCall('c1')] },
      finish,
      { toolCalls: [editCall('c2')] },
      finish,
    ]);
    const otherSession = new ScriptedProvider([{ toolCalls: [editCall('c3')] }, finish]);
    const runs = new RunManager({
      createAgent: ({ sessionId }) =>
        new DefaultAgent(sessionId === 's1' ? provider : otherSession, { approval: askForWrites }).registerTool(
          editTool(written),
        ),
    });
    const first = recorder();
    await runs.start({ sessionId: 's1', principal, input: 'edit', listener: first.listener });
    await vi.waitFor(() => expect(runs.snapshot('s1')?.approvals).toHaveLength(1), WAIT);
    runs.answerApproval('s1', runs.snapshot('s1')?.approvals[0]?.requestId ?? '', { decision: 'allow-session' });
    await first.done;

    const second = recorder();
    await runs.start({ sessionId: 's1', principal, input: 'edit again', listener: second.listener });
    await second.done;
    expect(written).toEqual(['c1.ts: b', 'c2.ts: b']);
    expect(second.events.map((event) => event.type)).not.toContain('approval-requested');
    expect(second.events.map((event) => event.type)).not.toContain('approval-resolved');
    expect(second.end()?.result?.exit).toBe('task_completion');

    // Another session of the same manager is asked as before.
    const other = recorder();
    await runs.start({ sessionId: 's2', principal, input: 'edit', listener: other.listener });
    await vi.waitFor(() => expect(runs.snapshot('s2')?.approvals).toHaveLength(1), WAIT);
    await runs.close();
    expect(other.end()?.result?.exit).toBe('cancelled');
  });
});

describe('RunManager with an agent kept across runs', () => {
  it('closes the session after each run and the same agent resumes it at the next', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentloop-runs-'));
    const store = new JsonlSessionStore({ directory: folder });
    try {
      const provider = new ScriptedProvider([finish, finish]);
      const agent = new DefaultAgent(provider, { session: { store, id: 's1' } });
      const runs = new RunManager({ createAgent: () => agent });
      for (const input of ['first', 'second']) {
        const record = recorder();
        await runs.start({ sessionId: 's1', principal, input, listener: record.listener });
        await record.done;
        expect(record.end()?.result?.exit).toBe('task_completion');
        // Released: another writer (a CLI resuming the session) could open it now.
        await store.open('s1');
        await store.release('s1');
      }
      expect(provider.request(1).messages.filter((message) => message.role === 'user')).toHaveLength(2);
      expect((await store.load('s1')).info.turnCount).toBe(2);
    } finally {
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('RunManager with tools that ask the user (elicitations)', () => {
  // The agent's run ids are r1, r2, ...: they name its requests (`elicitation-<runId>-<n>`).
  const bookingAgent = (steps: ScriptStep[] = [{ toolCalls: [bookCall('c1')] }, finish]) => {
    let runs = 0;
    return new DefaultAgent(new ScriptedProvider(steps), { createId: () => `r${++runs}` }).registerTool(bookTableTool);
  };
  const bookCall = (id: string, mode: 'form' | 'url' = 'form') => ({ id, name: 'book_table', arguments: { mode } });
  const toolResults = (events: AgentEvent[]) =>
    events.flatMap((event) => (event.type === 'tool-result' && event.name === 'book_table' ? [event.content] : []));

  async function untilAsked(runs: RunManager, record = recorder()) {
    await runs.start({ sessionId: 's1', principal, input: 'book', listener: record.listener });
    await vi.waitFor(() => expect(runs.snapshot('s1')?.elicitations).toHaveLength(1), WAIT);
    return { record, pending: runs.snapshot('s1')?.elicitations[0] };
  }

  it('holds the request until it is answered, and sends the accepted form with the defaults filled in', async () => {
    const agent = bookingAgent([{ toolCalls: [bookCall('c1')] }, finish, { toolCalls: [bookCall('c2')] }, finish]);
    const runs = new RunManager({ createAgent: () => agent });
    const { record, pending } = await untilAsked(runs);
    expect(pending).toEqual({
      requestId: 'elicitation-r1-1',
      toolCallId: 'c1',
      name: 'book_table',
      server: 'bookings',
      message: 'Which table?',
      mode: 'form',
      schema: BOOKING_FORM,
      path: [],
      expiresAt: expect.any(Number),
    });
    runs.answerElicitation('s1', 'elicitation-r1-1', { action: 'accept', content: { name: 'Ada', extras: ['cake'] } });
    // Answered: no longer pending, and a second answer finds nothing.
    expect(runs.snapshot('s1')?.elicitations).toEqual([]);
    await record.done;
    expect(JSON.parse(toolResults(record.events)[0] ?? '')).toEqual({
      action: 'accept',
      content: { name: 'Ada', extras: ['cake'], guests: 2, seating: 'inside', highChair: false },
    });
    expect(record.events.find((event) => event.type === 'elicitation-resolved')).toMatchObject({
      requestId: 'elicitation-r1-1',
      action: 'accept',
    });
    expect(runs.runCount).toBe(0);
    expect(runs.listenerCount).toBe(0);
    // The manager's listener is gone with its run: run on its own, the agent declines at once.
    const results: string[] = [];
    agent.on('tool-result', (event) => results.push(event.content));
    await agent.run('book again');
    expect(results[0]).toBe('{"action":"decline"}');
  });

  it('sends a decline and a cancel as they are', async () => {
    const runs = new RunManager({
      createAgent: () => bookingAgent([{ toolCalls: [bookCall('c1')] }, { toolCalls: [bookCall('c2')] }, finish]),
    });
    const { record } = await untilAsked(runs);
    runs.answerElicitation('s1', 'elicitation-r1-1', { action: 'decline' });
    await vi.waitFor(() => expect(runs.snapshot('s1')?.elicitations[0]?.requestId).toBe('elicitation-r1-2'), WAIT);
    runs.answerElicitation('s1', 'elicitation-r1-2', { action: 'cancel' });
    await record.done;
    expect(toolResults(record.events)).toEqual(['{"action":"decline"}', '{"action":"cancel"}']);
  });

  it('refuses an accepted form that leaves a required field empty with a 400 naming it, and still waits', async () => {
    const runs = new RunManager({ createAgent: () => bookingAgent() });
    const { record } = await untilAsked(runs);
    const refusal = captureError(() =>
      runs.answerElicitation('s1', 'elicitation-r1-1', { action: 'accept', content: { name: '', guests: 3 } }),
    );
    expect(refusal).toMatchObject({
      statusCode: 400,
      code: 'invalid_body',
      message:
        'The elicitation answer leaves required field "name" empty: fill it in, or answer with decline or cancel.',
    });
    expect(runs.snapshot('s1')?.elicitations).toHaveLength(1);
    runs.answerElicitation('s1', 'elicitation-r1-1', { action: 'accept', content: { name: 'Grace' } });
    await record.done;
    expect(toolResults(record.events)[0]).toContain('"name":"Grace"');
  });

  it('answers an unknown or already answered id with a 404 that says so', async () => {
    const runs = new RunManager({ createAgent: () => bookingAgent() });
    expect(captureError(() => runs.answerElicitation('s1', 'elicitation-r1-1', { action: 'decline' }))).toMatchObject({
      statusCode: 404,
      message:
        'Session s1 has no pending elicitation elicitation-r1-1: it was answered, timed out, or its tool call or run ended. GET /api/sessions/s1 shows what is pending.',
    });
    const { record } = await untilAsked(runs);
    expect(captureError(() => runs.answerElicitation('s1', 'nope', { action: 'decline' }))).toMatchObject({
      statusCode: 404,
      code: 'not_found',
    });
    runs.answerElicitation('s1', 'elicitation-r1-1', { action: 'decline' });
    expect(captureError(() => runs.answerElicitation('s1', 'elicitation-r1-1', { action: 'decline' }))).toMatchObject({
      statusCode: 404,
    });
    await record.done;
    expect(toolResults(record.events)).toEqual(['{"action":"decline"}']);
  });

  it('cancels a request nobody answers within the approval timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const runs = new RunManager({ createAgent: () => bookingAgent(), approvalTimeoutMs: 60_000 });
      const { record, pending } = await untilAsked(runs);
      const left = (pending?.expiresAt ?? 0) - Date.now();
      expect(left).toBeGreaterThan(59_000);
      await vi.advanceTimersByTimeAsync(left - 1);
      expect(runs.snapshot('s1')?.elicitations).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(runs.snapshot('s1')?.elicitations ?? []).toEqual([]);
      await record.done;
      expect(toolResults(record.events)).toEqual(['{"action":"cancel"}']);
      expect(record.end()?.result?.exit).toBe('task_completion');
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancels what waits when the run is cancelled, leaving nothing behind', async () => {
    const runs = new RunManager({ createAgent: () => bookingAgent() });
    const { record } = await untilAsked(runs);
    expect(runs.cancel('s1')).toBe(true);
    await record.done;
    expect(record.end()?.result?.exit).toBe('cancelled');
    expect(record.events.find((event) => event.type === 'elicitation-resolved')).toMatchObject({ action: 'cancel' });
    expect(runs.snapshot('s1')).toBeUndefined();
    expect(runs.listenerCount).toBe(0);
  });

  it("holds a sub-agent's request with its path, and a bad answer leaves it answerable", async () => {
    const helper = new DefaultAgent(new ScriptedProvider([{ toolCalls: [bookCall('h1')] }, finish]), {})
      .registerTool(bookTableTool)
      .asTool({ name: 'helper', description: 'Helps.' });
    const runs = new RunManager({
      createAgent: () =>
        new DefaultAgent(
          new ScriptedProvider([{ toolCalls: [{ id: 'c1', name: 'helper', arguments: { task: 'book' } }] }, finish]),
          {},
        ).registerTool(helper),
    });
    const { record, pending } = await untilAsked(runs);
    expect(pending).toMatchObject({ toolCallId: 'h1', path: [{ toolName: 'helper', toolCallId: 'c1' }] });
    const requestId = pending?.requestId ?? '';
    expect(requestId).toContain('/');
    expect(
      captureError(() => runs.answerElicitation('s1', requestId, { action: 'accept', content: {} })),
    ).toMatchObject({ statusCode: 400, code: 'invalid_body', details: { fields: ['name'] } });
    runs.answerElicitation('s1', requestId, { action: 'accept', content: { name: 'Lin' } });
    await record.done;
    expect(runs.snapshot('s1')).toBeUndefined();
    const helperResult = record.events.find(
      (event) =>
        event.type === 'subagent-event' && event.event.type === 'tool-result' && event.event.name === 'book_table',
    );
    expect(helperResult).toMatchObject({ event: { content: expect.stringContaining('"name":"Lin"') } });
  });
});

function captureError(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent, AgentEvent } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { JsonlSessionStore } from '@agentloop/sessions';
import { describe, expect, it, vi } from 'vitest';
import { askForWrites, editTool } from '../test-support/test-server.js';
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

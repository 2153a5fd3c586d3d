import { ProviderError } from '@agentloop/spec';
import { defineTool, type Tool } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefaultAgent } from '../agent/default-agent.js';
import type { AgentOptions } from '../agent/index.js';
import type { AgentEvent } from '../events/index.js';
import { MemoryJournal, ScriptedProvider, type ScriptStep } from '../testing/index.js';

/** A tool with a side effect: it counts the calls that really ran, and the idempotency key of each. */
function noteTool() {
  const ran: { text: string; idempotencyKey: string | undefined }[] = [];
  const tool: Tool<{ text: string }, string> = defineTool({
    name: 'note',
    description: 'Writes a note.',
    parameters: z.object({ text: z.string() }),
    annotations: { readOnly: false, destructive: true, openWorld: false },
    execute: ({ text }, context) => {
      ran.push({ text, idempotencyKey: context.idempotencyKey });
      return `noted ${text}`;
    },
  });
  return { tool, ran };
}

function block(toolName: string, args: unknown): string {
  return `<tool>\n${JSON.stringify({ server_name: 'local', tool_name: toolName, arguments: args })}\n</tool>`;
}

type Protocol = 'native' | 'xml';

/** Two notes, then task_completion: five journal steps (three model calls, two tool calls). */
function script(protocol: Protocol): ScriptStep[] {
  if (protocol === 'xml') {
    return [
      { text: `<thinking>Note one first.</thinking>Noting.\n${block('note', { text: 'one' })}` },
      { text: block('note', { text: 'two' }) },
      { text: block('task_completion', { result: 'Noted both.' }) },
    ];
  }
  return [
    {
      thinking: 'Note one first.',
      text: 'Noting.',
      toolCalls: [{ id: 'c1', name: 'note', arguments: { text: 'one' } }],
    },
    { toolCalls: [{ id: 'c2', name: 'note', arguments: { text: 'two' } }] },
    { toolCalls: [{ id: 'c3', name: 'task_completion', arguments: { result: 'Noted both.' } }] },
  ];
}

function providerFor(protocol: Protocol, steps: ScriptStep[]): ScriptedProvider {
  return new ScriptedProvider(steps, protocol === 'xml' ? { capabilities: { nativeTools: false } } : {});
}

/** An agent of the durable kind: the same options on every worker, its journal the run's. */
function agentOn(provider: ScriptedProvider, tool: Tool, protocol: Protocol, options: AgentOptions = {}) {
  const agent = new DefaultAgent(provider, {
    tools: [tool],
    toolProtocol: protocol,
    sessionId: 'session-1',
    workspace: '/work',
    now: () => 0,
    ...options,
  });
  const events: AgentEvent[] = [];
  agent.onAny((event) => events.push(event));
  return { agent, events };
}

/** A first run, recorded in a MemoryJournal. */
async function recordedRun(protocol: Protocol) {
  const { tool, ran } = noteTool();
  const provider = providerFor(protocol, script(protocol));
  const journal = new MemoryJournal({ now: () => 1_000 });
  const { agent, events } = agentOn(provider, tool, protocol);
  const result = await agent.run('Write two notes.', { journal });
  return { result, journal, events, ran, provider };
}

describe.each(['native', 'xml'] as const)('a run replayed from its journal (%s)', (protocol) => {
  it('calls neither the model nor a tool, and ends with the same result and messages', async () => {
    const first = await recordedRun(protocol);
    expect(first.result.exit).toBe('task_completion');
    expect(first.ran.map((call) => call.text)).toEqual(['one', 'two']);
    expect(first.journal.ran).toEqual([
      'model:1',
      expect.stringMatching(/^tool:1:/),
      'model:2',
      expect.stringMatching(/^tool:2:/),
      'model:3',
    ]);

    const { tool, ran } = noteTool();
    const provider = providerFor(protocol, []);
    const journal = new MemoryJournal({ records: first.journal.records });
    const { agent } = agentOn(provider, tool, protocol);
    const replayed = await agent.run('Write two notes.', { journal });

    expect(provider.requests).toHaveLength(0);
    expect(ran).toEqual([]);
    expect(journal.ran).toEqual([]);
    expect(replayed).toEqual(first.result);
    expect(replayed.messages).toEqual(first.result.messages);
    expect(agent.memory.messages()).toEqual(first.result.messages);
  });

  it('replays the steps of a journal cut after step 3, and runs the rest live with the same requests', async () => {
    const first = await recordedRun(protocol);
    const { tool, ran } = noteTool();
    // Only the last model call is left: the second note runs again, the model is asked once.
    const provider = providerFor(protocol, script(protocol).slice(2));
    const journal = new MemoryJournal({ records: first.journal.recordsThroughStep(3), now: () => 1_000 });
    const { agent } = agentOn(provider, tool, protocol);
    const replayed = await agent.run('Write two notes.', { journal });

    expect(journal.replayed).toEqual(['model:1', expect.stringMatching(/^tool:1:/), 'model:2']);
    expect(journal.ran).toEqual([expect.stringMatching(/^tool:2:/), 'model:3']);
    expect(ran.map((call) => call.text)).toEqual(['two']);
    expect(provider.requests).toHaveLength(1);
    // The request the model got is the one the first run sent at that point: history was rebuilt.
    expect(provider.requests[0]?.messages).toEqual(first.provider.requests[2]?.messages);
    expect(replayed).toEqual(first.result);
  });

  it('gives a tool call the same idempotency key when it runs again, and each call its own', async () => {
    const first = await recordedRun(protocol);
    const [one, two] = first.ran;
    expect(one?.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    expect(two?.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    expect(one?.idempotencyKey).not.toBe(two?.idempotencyKey);

    // A worker died during the second note: it runs again on another, with the key it had.
    const { tool, ran } = noteTool();
    const journal = new MemoryJournal({ records: first.journal.recordsThroughStep(3) });
    const { agent } = agentOn(providerFor(protocol, script(protocol).slice(2)), tool, protocol);
    await agent.run('Write two notes.', { journal });
    expect(ran).toEqual([{ text: 'two', idempotencyKey: two?.idempotencyKey }]);

    // Another run of the session (a new run id) gets other keys.
    const again = await recordedRun(protocol);
    expect(again.ran[1]?.idempotencyKey).not.toBe(two?.idempotencyKey);
  });

  it('gives the events of a replay the ids and payloads they had the first time', async () => {
    const first = await recordedRun(protocol);
    const byId = new Map(first.events.map((event) => [event.eventId, event]));
    expect(byId.size).toBe(first.events.length);

    for (const cut of [0, 3, 5]) {
      const { tool } = noteTool();
      const journal = new MemoryJournal({ records: first.journal.recordsThroughStep(cut), now: () => 1_000 });
      // The model calls among the first `cut` steps (model, tool, model, tool, model) are replayed.
      const steps = script(protocol).slice([0, 1, 1, 2, 2, 3][cut]);
      const { agent, events } = agentOn(providerFor(protocol, steps), tool, protocol);
      await agent.run('Write two notes.', { journal });
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(event).toEqual(byId.get(event.eventId));
      // A step replayed from the journal does not stream again: the full replay shows no text as it streams.
      if (cut === 5) expect(events.filter((event) => event.type === 'message-content')).toEqual([]);
    }
  });
});

describe("the run's journal", () => {
  it("is the one the run names, over the agent's own", async () => {
    const { tool } = noteTool();
    const own = new MemoryJournal();
    const { agent } = agentOn(providerFor('native', script('native')), tool, 'native', { journal: own });
    const run = new MemoryJournal();
    await agent.run('Write two notes.', { journal: run });
    expect(own.records).toEqual([]);
    expect(run.ran).toHaveLength(5);
  });
});

describe('approvals in a replayed run', () => {
  it('replays the decisions without asking, and the session grant with them', async () => {
    const { tool, ran } = noteTool();
    const steps: ScriptStep[] = [
      { toolCalls: [{ id: 'c1', name: 'note', arguments: { text: 'one' } }] },
      { toolCalls: [{ id: 'c2', name: 'note', arguments: { text: 'two' } }] },
      { toolCalls: [{ id: 'c3', name: 'task_completion', arguments: { result: 'Noted both.' } }] },
    ];
    const journal = new MemoryJournal({ now: () => 1_000, createId: () => 'run-1' });
    const { agent } = agentOn(new ScriptedProvider(steps), tool, 'native', { approval: 'ask' });
    const asked: string[] = [];
    agent.on('approval-requested', (event) => {
      asked.push(event.toolCallId);
      agent.answerApproval(event.requestId, { decision: 'allow-session' });
    });
    const result = await agent.run('Write two notes.', { journal });
    // Asked once: the grant covers the second call.
    expect(asked).toEqual(['c1']);
    expect(ran.map((call) => call.text)).toEqual(['one', 'two']);
    expect(journal.records.filter((record) => record.kind === 'answer')).toEqual([
      { kind: 'answer', name: 'approval-run-1-1', value: { decision: 'allow-session' } },
    ]);

    // Replayed on another worker with everything but the last model call: nothing is asked, and the
    // grant comes back from the recorded answer.
    const second = noteTool();
    const replayJournal = new MemoryJournal({ records: journal.recordsThroughStep(6), now: () => 1_000 });
    const { agent: replaying } = agentOn(new ScriptedProvider(steps.slice(2)), second.tool, 'native', {
      approval: 'ask',
    });
    const replayAsked: string[] = [];
    replaying.on('approval-requested', (event) => replayAsked.push(event.requestId));
    const replayed = await replaying.run('Write two notes.', { journal: replayJournal });
    expect(replayAsked).toEqual([]);
    // The request id is made from the recorded run id, so the replay finds the recorded answer under it.
    expect(replayJournal.replayed).toContain('approval-run-1-1');
    expect(replayJournal.replayed).toContain('approval:1:c1');
    expect(second.ran).toEqual([]);
    expect(replaying.approvalGrants).toEqual([{ toolName: 'note' }]);
    expect(replayed).toEqual(result);
  });

  it('carries grants to a new agent of the session with approvalGrants and addApprovalGrants', async () => {
    const noteOnce = (id: string): ScriptStep[] => [
      { toolCalls: [{ id, name: 'note', arguments: { text: id } }] },
      { toolCalls: [{ id: `${id}-done`, name: 'task_completion', arguments: { result: 'ok' } }] },
    ];
    const { tool, ran } = noteTool();
    const { agent } = agentOn(new ScriptedProvider(noteOnce('c1')), tool, 'native', { approval: 'ask' });
    const asked: string[] = [];
    agent.on('approval-requested', (event) => {
      asked.push(event.toolCallId);
      agent.answerApproval(event.requestId, { decision: 'allow-session' });
    });
    await agent.run('Write a note.');
    expect(agent.approvalGrants).toEqual([{ toolName: 'note' }]);

    // The next run of the session, on another worker: a new agent, given the grants the session kept.
    const { agent: next } = agentOn(new ScriptedProvider(noteOnce('c2')), tool, 'native', { approval: 'ask' });
    next.on('approval-requested', (event) => asked.push(event.toolCallId));
    next.addApprovalGrants(agent.approvalGrants);
    const result = await next.run('Write another.');
    expect(result.exit).toBe('task_completion');
    expect(asked).toEqual(['c1']);
    expect(ran.map((call) => call.text)).toEqual(['c1', 'c2']);
  });

  it('refuses grants on an agent without an approval policy, and a grant of the wrong shape', () => {
    const { tool } = noteTool();
    const { agent: withoutPolicy } = agentOn(new ScriptedProvider([]), tool, 'native');
    expect(() => withoutPolicy.addApprovalGrants([{ toolName: 'note' }])).toThrow(/no approval policy/);
    const { agent } = agentOn(new ScriptedProvider([]), tool, 'native', { approval: 'ask' });
    expect(() => agent.addApprovalGrants([{ toolName: 3 } as never])).toThrow(
      'An approval grant is { toolName: string, commandPrefix?: string }, got {"toolName":3}.',
    );
  });
});

describe('a failed model call in a replayed run', () => {
  it('replays the final error as recorded, so the run ends with the same typed result without a call', async () => {
    const failure = new ProviderError('Invalid API key.', {
      code: 'authentication',
      provider: 'scripted',
      statusCode: 401,
    });
    const { tool } = noteTool();
    const journal = new MemoryJournal({ now: () => 1_000 });
    const { agent } = agentOn(new ScriptedProvider([{ error: failure }]), tool, 'native');
    const first = await agent.run('Write a note.', { journal });
    expect(first.exit).toBe('error');
    expect(first.error).toBe(failure);

    const replaying = new ScriptedProvider([]);
    const { agent: again } = agentOn(replaying, tool, 'native');
    const replayed = await again.run('Write a note.', { journal: new MemoryJournal({ records: journal.records }) });
    expect(replaying.requests).toEqual([]);
    expect(replayed.exit).toBe('error');
    expect(ProviderError.isInstance(replayed.error)).toBe(true);
    expect(replayed.error).toBeInstanceOf(ProviderError);
    expect(replayed.error?.toJSON()).toEqual(failure.toJSON());
    expect((replayed.error as ProviderError).provider).toBe('scripted');
  });
});

describe('a sub-agent in a replayed run', () => {
  it("is not run again, and its tokens count in the replayed run's usage", async () => {
    const steps: ScriptStep[] = [
      {
        toolCalls: [{ id: 'p1', name: 'researcher', arguments: { task: 'Find it.' } }],
        usage: { inputTokens: 10, outputTokens: 1 },
      },
      {
        toolCalls: [{ id: 'k1', name: 'task_completion', arguments: { result: 'Found it.' } }],
        usage: { inputTokens: 100, outputTokens: 7 },
      },
      {
        toolCalls: [{ id: 'p2', name: 'task_completion', arguments: { result: 'Done.' } }],
        usage: { inputTokens: 20, outputTokens: 2 },
      },
    ];
    const withResearcher = (provider: ScriptedProvider) => {
      const { tool } = noteTool();
      const { agent } = agentOn(provider, tool, 'native');
      agent.registerTool(agent.asTool({ name: 'researcher', description: 'Researches.' }));
      return agent;
    };
    const journal = new MemoryJournal({ now: () => 1_000 });
    const first = await withResearcher(new ScriptedProvider(steps)).run('Research.', { journal });
    expect(first.exit).toBe('task_completion');
    expect(first.usage).toMatchObject({ inputTokens: 130, outputTokens: 10 });

    const replaying = new ScriptedProvider([]);
    const replayed = await withResearcher(replaying).run('Research.', {
      journal: new MemoryJournal({ records: journal.records }),
    });
    expect(replaying.requests).toEqual([]);
    expect(replayed.usage).toEqual(first.usage);
    expect(replayed).toEqual(first);
  });
});

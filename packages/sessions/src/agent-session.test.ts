import { join } from 'node:path';
import { createContainer, definePlugin, disposeContainer, resolveAgent, TOKENS } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import type { SessionStore } from '@agentloop/memory';
import { ConversationMemory, DropMiddleCompactor } from '@agentloop/memory';
import { findHistoryProblem, messageText, systemMessage, toolCallsOf, userMessage } from '@agentloop/spec';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteSessionStore } from './sqlite/sqlite-session-store.js';
import { rejectionOf } from './test-support/caught.js';
import { lookupTool, scriptedAgent, scriptedTurn } from './test-support/scripted-turns.js';
import { STORE_KINDS, tempFolder } from './test-support/store-kinds.js';

// A DefaultAgent with `session: { store, id }`, on both real stores. Each "process" is a store of its own
// on the same place, as a restarted app would make.
describe.each(STORE_KINDS)('an agent keeping its session in the $name store', (kind) => {
  let folder: ReturnType<typeof tempFolder>;
  let location: string;
  const stores: SessionStore[] = [];
  const newStore = (): SessionStore => {
    const store = kind.open(location);
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    folder = tempFolder();
    location = kind.location(folder.path);
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    folder.remove();
  });

  it('starts a session at its first run and saves each run, titled after the first input', async () => {
    const store = newStore();
    const { agent, provider } = scriptedAgent([...scriptedTurn(1), ...scriptedTurn(2)], {
      session: { store },
      workspace: '/work/app',
    });
    await agent.run('Look k1 up');
    await agent.run('Now k2');
    provider.assertComplete();

    const [info] = await newStore().list();
    expect(info).toMatchObject({
      id: agent.sessionId,
      title: 'Look k1 up',
      model: 'scripted-model',
      workspace: '/work/app',
      turnCount: 2,
      messageCount: 10,
      tokenCount: 2 * (100 + 10 + 120 + 12),
    });
    const stored = await newStore().load(agent.sessionId);
    expect(stored.messages).toStrictEqual(agent.memory.messages());
    expect(findHistoryProblem(stored.messages)).toBeUndefined();
  });

  it('resumes a session in a new agent: the conversation, the usage totals, and the next run goes on from them', async () => {
    const first = scriptedAgent(scriptedTurn(1), { session: { store: newStore(), id: 'work' } });
    await first.agent.run('Look k1 up');
    await first.agent.closeSession();

    const second = scriptedAgent(scriptedTurn(2), { session: { store: newStore(), id: 'work' } });
    const resumed = await second.agent.openSession();
    expect(resumed.messages).toStrictEqual(first.agent.memory.messages());
    expect(second.agent.memory.messages()).toStrictEqual(first.agent.memory.messages());
    expect(second.agent.sessionUsage).toMatchObject({ inputTokens: 220, outputTokens: 22 });
    expect(second.agent.sessionId).toBe('work');

    const result = await second.agent.run('Now k2');
    expect(result).toMatchObject({ exit: 'task_completion', payload: { result: 'done 2' } });
    // The model saw the first run's history before the new input.
    expect(second.provider.request(0).messages.map(messageText).slice(0, 1)).toEqual(['Look k1 up']);
    expect(second.provider.request(0).messages).toHaveLength(6);
    expect(second.agent.sessionUsage).toMatchObject({ inputTokens: 440, outputTokens: 44 });
    expect((await newStore().load('work')).messages).toHaveLength(10);
  });

  it('resumes at the first run by itself, without openSession', async () => {
    const first = scriptedAgent(scriptedTurn(1), { session: { store: newStore(), id: 'work' } });
    await first.agent.run('Look k1 up');
    await first.agent.closeSession();

    const second = scriptedAgent(scriptedTurn(2), { session: { store: newStore(), id: 'work' } });
    await second.agent.run('Now k2');

    expect(second.provider.request(0).messages).toHaveLength(6);
  });

  it("counts a session's saved usage once in the agent's totals, also when the agent opens it again", async () => {
    const first = scriptedAgent(scriptedTurn(1), { session: { store: newStore(), id: 'u' } });
    await first.agent.run('Look k1 up');
    const saved = first.agent.metrics.usage.inputTokens;
    expect(saved).toBeGreaterThan(0);
    await first.agent.closeSession();

    const second = scriptedAgent(scriptedTurn(2), { session: { store: newStore(), id: 'u' } });
    await second.agent.openSession();
    expect(second.agent.metrics.usage.inputTokens).toBe(saved);
    await second.agent.run('Now k2');
    const afterRun = second.agent.metrics.usage.inputTokens;
    await second.agent.closeSession();
    await second.agent.openSession();
    expect(second.agent.metrics.usage.inputTokens).toBe(afterRun);
  });

  it('brings back the pending question of an ask_question exit, and the next input answers it', async () => {
    const first = scriptedAgent(scriptedTurn(1, { ask: true }), { session: { store: newStore(), id: 'q' } });
    const asked = await first.agent.run('Look k1 up');
    expect(asked.exit).toBe('ask_question');
    expect(first.agent.pendingQuestion).toEqual({ question: 'Go on after 1?', suggestions: ['yes', 'no'] });
    await first.agent.closeSession();

    const second = scriptedAgent(scriptedTurn(2), { session: { store: newStore(), id: 'q' } });
    const resumed = await second.agent.openSession();
    expect(resumed.pendingQuestion).toEqual({ question: 'Go on after 1?', suggestions: ['yes', 'no'] });
    expect(second.agent.pendingQuestion).toEqual({ question: 'Go on after 1?', suggestions: ['yes', 'no'] });

    await second.agent.run('yes');
    const sent = second.provider.request(0).messages;
    expect(toolCallsOf(sent[3]!).map((call) => call.toolName)).toEqual(['ask_question']);
    expect(messageText(sent.at(-1)!)).toBe('yes');
    expect(second.agent.pendingQuestion).toBeUndefined();
    expect((await newStore().load('q')).pendingQuestion).toBeUndefined();
  });

  it('refuses to run a session another agent has open, with session_locked', async () => {
    const holder = scriptedAgent([], { session: { store: newStore(), id: 'busy' } });
    await holder.agent.openSession();

    const other = scriptedAgent(scriptedTurn(1), { session: { store: newStore(), id: 'busy' } });
    expect(await rejectionOf(other.agent.openSession())).toMatchObject({ code: 'session_locked', sessionId: 'busy' });
    expect(await rejectionOf(other.agent.run('hello'))).toMatchObject({ code: 'session_locked' });
    expect(other.agent.running).toBe(false);

    await holder.agent.closeSession();
    await expect(other.agent.run('hello')).resolves.toMatchObject({ exit: 'task_completion' });
  });

  it('saves a run that failed with every tool call answered, so the history loads and is sent again', async () => {
    const { agent } = scriptedAgent(
      [{ toolCalls: [{ name: 'lookup', arguments: { key: 'a' }, id: 'c1' }] }, { error: new Error('server down') }],
      { session: { store: newStore(), id: 'failed' } },
    );
    const result = await agent.run('Look a up');
    expect(result.exit).toBe('error');

    const stored = await newStore().load('failed');
    expect(stored.messages).toStrictEqual(agent.memory.messages());
    expect(findHistoryProblem(stored.messages)).toBeUndefined();
    expect(stored.info.turnCount).toBe(1);
  });

  it('saves a cancelled run with the calls it did not run answered', async () => {
    const { agent } = scriptedAgent(
      [{ toolCalls: [{ name: 'lookup', arguments: { key: 'a' }, id: 'c1' }], hang: true }],
      {
        session: { store: newStore(), id: 'cancelled' },
      },
    );
    // Once the call is streamed and the stream hangs: the scripted stream needs no timer, so by the next
    // turn of the event loop it has sent the whole call.
    agent.once('tool-call-start', () => setImmediate(() => agent.cancel()));
    const result = await agent.run('Look a up');
    expect(result.exit).toBe('cancelled');

    const stored = await newStore().load('cancelled');
    expect(findHistoryProblem(stored.messages)).toBeUndefined();
    expect(stored.messages).toStrictEqual(agent.memory.messages());
    expect(stored.messages.at(-1)?.content).toMatchObject([
      { type: 'tool-result', toolCallId: 'c1', isError: true, content: 'Not run: the user cancelled the turn.' },
    ]);
  });

  it('saves a conversation rewritten between runs (a restore, a compaction) as a turn of its own', async () => {
    const { agent } = scriptedAgent([...scriptedTurn(1), ...scriptedTurn(2)], {
      session: { store: newStore(), id: 'r' },
    });
    await agent.run('Look k1 up');
    agent.memory.restore({ schemaVersion: 1, messages: [userMessage('Summary: k1 was looked up.')] });
    await agent.run('Now k2');

    const stored = await newStore().load('r');
    expect(stored.messages[0]).toStrictEqual(userMessage('Summary: k1 was looked up.'));
    expect(stored.messages).toStrictEqual(agent.memory.messages());
    expect(stored.info.turnCount).toBe(3);
  });

  it('saves a compaction made during a run, and a new agent resumes the compacted conversation', async () => {
    const read = (id: string, inputTokens: number) => ({
      toolCalls: [{ name: 'lookup', arguments: { key: id.repeat(400) }, id }],
      usage: { inputTokens, outputTokens: 10 },
    });
    const { agent } = scriptedAgent(
      [
        read('a', 300),
        read('b', 700),
        read('c', 1_100),
        { toolCalls: [{ name: 'task_completion', arguments: { result: 'read' }, id: 'done' }] },
      ],
      {
        session: { store: newStore(), id: 'compacted' },
        contextWindow: 2_000,
        compaction: { threshold: 0.5, compactor: new DropMiddleCompactor() },
      },
    );
    let compactions = 0;
    agent.on('compaction-end', () => {
      compactions++;
    });
    await agent.run('Read three things');
    await agent.closeSession();
    expect(compactions).toBeGreaterThan(0);

    const stored = await newStore().load('compacted');
    expect(stored.messages).toStrictEqual(agent.memory.messages());
    expect(findHistoryProblem(stored.messages)).toBeUndefined();
    const resumed = scriptedAgent([], { session: { store: newStore(), id: 'compacted' } });
    await resumed.agent.openSession();
    expect(resumed.agent.memory.messages()).toStrictEqual(agent.memory.messages());
  });

  it('commits each turn before a loop-end listener starts the next run', async () => {
    const { agent } = scriptedAgent([...scriptedTurn(1), ...scriptedTurn(2)], {
      session: { store: newStore(), id: 'chain' },
    });
    let second: Promise<unknown> | undefined;
    agent.once('loop-end', () => {
      second = agent.run('Now k2');
    });
    await agent.run('Look k1 up');
    await second;

    const stored = await newStore().load('chain');
    expect(stored.info.turnCount).toBe(2);
    expect(stored.messages).toStrictEqual(agent.memory.messages());
  });

  it('keeps what the memory held before the first run as the start of a new session', async () => {
    const memory = new ConversationMemory([systemMessage('Answer in French.')]);
    const { agent } = scriptedAgent(scriptedTurn(1), { session: { store: newStore(), id: 'm' }, memory });
    await agent.run('Look k1 up');

    expect((await newStore().load('m')).messages[0]).toStrictEqual(systemMessage('Answer in French.'));
    expect(agent.memory.messages()[0]).toStrictEqual(systemMessage('Answer in French.'));
  });

  it('says what is wrong with its session options', () => {
    expect(() => scriptedAgent([], { session: { store: newStore(), id: 'a' }, sessionId: 'b' })).toThrow(
      'session.id ("a") and sessionId ("b") differ: give one of them.',
    );
    expect(() => scriptedAgent([], { session: { store: {} as SessionStore } })).toThrow(/must be a SessionStore/);
    expect(() => scriptedAgent([], { session: { store: newStore(), id: '../x' } })).not.toThrow();
  });

  it('refuses an id the store cannot hold, at the first run', async () => {
    const { agent } = scriptedAgent([], { session: { store: newStore(), id: '../x' } });

    expect(await rejectionOf(agent.run('hi'))).toMatchObject({ code: 'invalid_session_id' });
  });
});

describe('a SessionStore a plugin registers', () => {
  it('keeps the sessions of the agents the container makes', async () => {
    const folder = tempFolder();
    const store = STORE_KINDS[0]!.open(STORE_KINDS[0]!.location(folder.path));
    const container = await createContainer({
      provider: new ScriptedProvider(scriptedTurn(1)),
      plugins: [definePlugin({ name: 'sessions', register: (c) => c.register(TOKENS.SessionStore, () => store) })],
    });
    try {
      const agent = resolveAgent(container).registerTool(lookupTool);
      await agent.run('Look k1 up');

      expect(await store.list()).toMatchObject([{ id: agent.sessionId, turnCount: 1, messageCount: 5 }]);
    } finally {
      await disposeContainer(container);
      await store.close();
      folder.remove();
    }
  });
});

describe('an agent without a session', () => {
  it('has no session to open', async () => {
    const { agent } = scriptedAgent([]);

    expect(await rejectionOf(agent.openSession())).toMatchObject({ code: 'invalid_usage' });
    expect(agent.sessionUsage).toBeUndefined();
    await expect(agent.closeSession()).resolves.toBeUndefined();
  });
});

describe('a turn the store fails to save', () => {
  it('ends the run with exit error and the store error, and the next run saves the whole conversation', async () => {
    const folder = tempFolder();
    const file = join(folder.path, 'sessions.sqlite');
    const store = new SqliteSessionStore({ file, busyTimeoutMs: 20 });
    try {
      const { agent } = scriptedAgent([...scriptedTurn(1), ...scriptedTurn(2), ...scriptedTurn(3)], {
        session: { store, id: 'x' },
      });
      await agent.run('one');
      // Another program holds the database's write lock for longer than the store waits.
      const blocker = new Database(file);
      blocker.exec('BEGIN EXCLUSIVE');
      const result = await agent.run('two');
      blocker.exec('ROLLBACK');
      blocker.close();
      expect(result).toMatchObject({
        exit: 'error',
        error: { name: 'SessionStoreError', code: 'store_failed', sessionId: 'x' },
      });
      expect(result.error?.message).toBe(
        `${file} is busy: another process kept it locked too long (database is locked (SQLITE_BUSY)). Try again.`,
      );
      expect((await store.load('x')).messages).toHaveLength(5);

      await agent.run('three');
      const stored = await store.load('x');
      expect(stored.messages).toStrictEqual(agent.memory.messages());
      expect(stored.messages.map(messageText).filter((text) => text !== '')).toEqual(['one', 'two', 'three']);
    } finally {
      await store.close();
      folder.remove();
    }
  });
});

import type { SessionStore, SessionTurn, StoredSession } from '@agentloop/memory';
import { SessionStoreError } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import { AgentloopError, emptyUsage, messageText } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { complete, scriptedAgent } from '../test-support/agent-harness.js';
import { sessionStoreFailure } from './session-store-failure.js';

type Operation = 'open' | 'create' | 'append' | 'commit';

/** An error as Node's file system throws it. */
function systemError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code, errno: -28, syscall: 'write' });
}

/** An error as better-sqlite3 throws it: its code is not in its message. */
function sqliteError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * A store in memory that fails an operation with what `failures` holds, the way a store on a full disk or
 * a read-only folder would: the raw error of its file system or driver, not a SessionStoreError.
 */
class FaultyStore implements SessionStore {
  readonly failures = new Map<Operation, unknown>();
  readonly saved = new Map<string, Message[]>();
  #turn: Message[] | undefined;

  #fail(operation: Operation): void {
    if (this.failures.has(operation)) throw this.failures.get(operation);
  }

  #stored(id: string): StoredSession {
    const messages = this.saved.get(id) ?? [];
    const at = new Date(0);
    return {
      info: {
        id,
        title: undefined,
        model: undefined,
        workspace: undefined,
        createdAt: at,
        updatedAt: at,
        turnCount: 0,
        messageCount: messages.length,
        tokenCount: 0,
      },
      messages: [...messages],
      usage: emptyUsage(),
      pendingQuestion: undefined,
    };
  }

  async create(options: { id?: string } = {}) {
    this.#fail('create');
    this.saved.set(options.id!, []);
    return this.#stored(options.id!).info;
  }
  async open(id: string) {
    this.#fail('open');
    if (!this.saved.has(id)) throw new SessionStoreError(`No session ${id}.`, { code: 'session_not_found' });
    this.#turn = undefined;
    return this.#stored(id);
  }
  async append(id: string, message: Message) {
    this.#fail('append');
    this.#turn = [...(this.#turn ?? this.saved.get(id)!), message];
  }
  async replace(_id: string, messages: readonly Message[]) {
    this.#turn = [...messages];
  }
  async commit(id: string, _turn: SessionTurn) {
    this.#fail('commit');
    if (this.#turn) this.saved.set(id, this.#turn);
    this.#turn = undefined;
  }
  async release() {}
  async load(id: string) {
    return this.#stored(id);
  }
  async list() {
    return [];
  }
  async delete() {}
  async fork() {
    return this.#stored('fork').info;
  }
  async close() {}
}

const FAILURES: { name: string; operation: Operation; error: unknown; shows: string }[] = [
  {
    name: 'a full disk (ENOSPC) at the commit',
    operation: 'commit',
    error: systemError('ENOSPC', 'no space left on device, write'),
    shows: 'ENOSPC: no space left on device, write.',
  },
  {
    name: 'a full database (SQLITE_FULL) at an append',
    operation: 'append',
    error: sqliteError('SQLITE_FULL', 'database or disk is full'),
    shows: 'database or disk is full (SQLITE_FULL).',
  },
  {
    name: 'a read-only folder (EROFS) at the commit',
    operation: 'commit',
    error: systemError('EROFS', 'read-only file system, open'),
    shows: 'EROFS: read-only file system, open.',
  },
];

describe('a run whose session store fails to save its turn', () => {
  it.each(FAILURES)('ends with exit error and a typed session error on $name', async ({ operation, error, shows }) => {
    const store = new FaultyStore();
    const { agent, events } = scriptedAgent([complete('one'), complete('two'), complete('three')], {
      session: { store, id: 's1' },
      sessionId: undefined,
    });
    await agent.run('first');
    expect(store.saved.get('s1')!.map(messageText)).toEqual(['first', '', '']);

    store.failures.set(operation, error);
    const result = await agent.run('second');
    expect(result.exit).toBe('error');
    expect(result.error).toBeInstanceOf(SessionStoreError);
    expect(result.error).toMatchObject({ code: 'store_failed', sessionId: 's1', cause: error });
    expect(result.error!.message).toBe(
      `Session s1 could not be saved: ${shows} The turns saved before are intact; once the store works again, the next run saves this one too.`,
    );
    // loop-end is the last event and tells the same story as the result.
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'loop-end', result: { exit: 'error', error: result.error } });
    // The committed turn is as it was.
    expect(store.saved.get('s1')!.map(messageText)).toEqual(['first', '', '']);

    store.failures.clear();
    await expect(agent.run('third')).resolves.toMatchObject({ exit: 'task_completion' });
    expect(store.saved.get('s1')).toStrictEqual(agent.memory.messages());
    expect(store.saved.get('s1')!.map(messageText).filter(Boolean)).toEqual(['first', 'second', 'third']);
  });

  it('rejects a run whose session cannot be opened with a typed session error, before the run starts', async () => {
    const store = new FaultyStore();
    const erofs = systemError('EROFS', "read-only file system, open '/data/sessions/s1.jsonl'");
    store.failures.set('create', erofs);
    const { agent, types } = scriptedAgent([complete('one')], { session: { store, id: 's1' }, sessionId: undefined });
    const error = await agent.run('first').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SessionStoreError);
    expect(error).toMatchObject({
      code: 'store_failed',
      sessionId: 's1',
      message:
        "Session s1 could not be opened: EROFS: read-only file system, open '/data/sessions/s1.jsonl'. Check where the session store keeps its data (free space, permissions), then try again.",
    });
    expect(types()).toEqual([]);
    expect(agent.running).toBe(false);
  });
});

describe('sessionStoreFailure', () => {
  it('keeps a SessionStoreError as it is', () => {
    const locked = new SessionStoreError('Session s1 is open in process 7.', { code: 'session_locked' });
    expect(sessionStoreFailure(locked, 's1', 'opened')).toBe(locked);
  });

  it('wraps another agentloop error, and anything thrown, in a store_failed SessionStoreError', () => {
    const other = new AgentloopError('boom', { code: 'unknown' });
    expect(sessionStoreFailure(other, 's1', 'saved')).toMatchObject({ code: 'store_failed', cause: other });
    expect(sessionStoreFailure('a string', 's1', 'saved').message).toMatch(
      /^Session s1 could not be saved: a string\. /,
    );
  });
});

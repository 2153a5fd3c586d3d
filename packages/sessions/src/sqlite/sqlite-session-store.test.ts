import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findHistoryProblem, messageText } from '@agentloop/spec';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rejectionOf, thrownBy } from '../test-support/caught.js';
import { turnMessages, usage } from '../test-support/conversation.js';
import { tempFolder } from '../test-support/store-kinds.js';
import { SQLITE_SCHEMA_VERSION } from './sqlite-schema.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

const FIXTURE = new URL('../__fixtures__/sessions-v1.sql', import.meta.url);

describe('SqliteSessionStore', () => {
  let folder: ReturnType<typeof tempFolder>;
  let file: string;
  const stores: SqliteSessionStore[] = [];
  const newStore = () => {
    const store = new SqliteSessionStore({ file });
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    folder = tempFolder();
    file = join(folder.path, 'data', 'sessions.sqlite');
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    folder.remove();
  });

  /** Reads the database beside the store, as another program would. */
  const inspect = <T>(read: (db: Database.Database) => T): T => {
    const db = new Database(file, { readonly: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  };

  it('makes the database and its folder, in WAL mode, at the current schema version', () => {
    newStore();

    expect(inspect((db) => db.pragma('journal_mode', { simple: true }))).toBe('wal');
    expect(inspect((db) => db.pragma('user_version', { simple: true }))).toBe(SQLITE_SCHEMA_VERSION);
    expect(SQLITE_SCHEMA_VERSION).toBe(1);
  });

  it('writes a turn in one transaction at its commit: nothing of it is in the database before', async () => {
    const store = newStore();
    await store.create({ id: 's1' });
    await store.open('s1');
    for (const message of turnMessages(1)) await store.append('s1', message);
    const countMessages = () => inspect((db) => db.prepare('SELECT count(*) FROM messages').pluck().get());

    expect(countMessages()).toBe(0);
    await store.commit('s1', { usage: usage(5, 6), exit: 'converse', model: 'm' });
    expect(countMessages()).toBe(4);
    expect(inspect((db) => db.prepare('SELECT turn, exit, model, usage FROM turns').all())).toEqual([
      { turn: 1, exit: 'converse', model: 'm', usage: JSON.stringify(usage(5, 6)) },
    ]);
  });

  it('refuses a database of a newer schema version, saying so', () => {
    newStore();
    stores.pop()!.close();
    const db = new Database(file);
    db.pragma('user_version = 7');
    db.close();

    expect(thrownBy(() => newStore())).toMatchObject({
      code: 'unsupported_session_version',
      message: expect.stringContaining(
        'is a session database of schema version 7; this version of @agentloop/sessions reads up to version 1',
      ),
    });
  });

  it('opens a database at the current version without waiting for another process writing to it', async () => {
    const first = newStore();
    await first.create({ id: 's1' });
    // Another process in the middle of a write: an open that migrated in a write transaction would wait for
    // it, and fail when the busy timeout ran out.
    const writer = new Database(file);
    writer.exec('BEGIN IMMEDIATE');
    try {
      const store = new SqliteSessionStore({ file, busyTimeoutMs: 50 });
      stores.push(store);
      expect((await store.list()).map((session) => session.id)).toEqual(['s1']);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });

  it('keeps the lock in the session row while it is open, and clears it at release', async () => {
    const store = newStore();
    await store.create({ id: 's1' });
    await store.open('s1');
    const writer = () => inspect((db) => db.prepare('SELECT writer FROM sessions').pluck().get() as string | null);

    expect(JSON.parse(writer()!)).toMatchObject({ pid: process.pid });
    await store.release('s1');
    expect(writer()).toBeNull();
  });

  it('takes over a lock whose process is gone', async () => {
    const store = newStore();
    await store.create({ id: 's1' });
    const gone = { pid: 2 ** 22 + 12_345, host: (await import('node:os')).hostname(), token: 't', since: 'then' };
    inspect(() => undefined);
    const db = new Database(file);
    db.prepare('UPDATE sessions SET writer = ?').run(JSON.stringify(gone));
    db.close();

    await expect(store.open('s1')).resolves.toMatchObject({ messages: [] });
  });

  describe('rows checked against the schema on read', () => {
    /** A session of one committed turn, then `sql` run on the database as another program would. */
    const damage = async (sql: string) => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.create({ id: 'good' });
      await store.open('s1');
      for (const message of turnMessages(1)) await store.append('s1', message);
      await store.commit('s1', { usage: usage(5, 6) });
      await store.release('s1');
      const db = new Database(file);
      db.exec(sql);
      db.close();
      return store;
    };

    it('says which session row is damaged, in which file, and what is wrong with it', async () => {
      const store = await damage(`UPDATE sessions SET usage = '{"inputTokens":5}' WHERE id = 's1'`);
      expect(await rejectionOf(store.load('s1'))).toMatchObject({
        code: 'invalid_session',
        sessionId: 's1',
        message: `Session s1: its row in the sessions table of ${file} is damaged (usage.outputTokens: Invalid input: expected number, received undefined). It cannot be resumed: start a new session (the other sessions in the database are not affected).`,
      });
      expect(await rejectionOf(store.open('s1'))).toMatchObject({ code: 'invalid_session', sessionId: 's1' });
    });

    it('says which message row is damaged', async () => {
      const store = await damage(
        `UPDATE messages SET message = '{"role":"tool","content":[{"type":"tool-result"}]}' WHERE session_id = 's1' AND position = 2`,
      );
      expect(await rejectionOf(store.load('s1'))).toMatchObject({
        code: 'invalid_session',
        message: expect.stringContaining(
          `Session s1: message 2 (its row in the messages table of ${file}) is damaged (content.0.toolCallId: Invalid input: expected string, received undefined).`,
        ),
      });
    });

    it('leaves a damaged session out of a list, and lists the others', async () => {
      const store = await damage(`UPDATE sessions SET pending_question = 'not json' WHERE id = 's1'`);
      expect((await store.list()).map((session) => session.id)).toEqual(['good']);
      expect(await rejectionOf(store.load('s1'))).toMatchObject({
        message: expect.stringContaining('is damaged (pending_question: not JSON)'),
      });
    });

    it('takes a damaged lock for no lock', async () => {
      const store = await damage(`UPDATE sessions SET writer = '{"pid":' WHERE id = 's1'`);
      await expect(store.open('s1')).resolves.toMatchObject({ info: { id: 's1', messageCount: 4 } });
    });
  });

  // This database is schema version 1 as released, kept as SQL text. It is written by hand and must never
  // be regenerated: if a change breaks these tests, add a migration instead.
  describe('the frozen version 1 database', () => {
    beforeEach(() => {
      newStore();
      stores.pop()!.close();
      // A database made by version 1 itself: the fixture's own schema, not the current migrations.
      const db = new Database(join(folder.path, 'data', 'v1.sqlite'));
      db.exec(readFileSync(FIXTURE, 'utf8'));
      db.close();
      file = join(folder.path, 'data', 'v1.sqlite');
    });

    it('loads its sessions', async () => {
      const loaded = await newStore().load('frozen-v1');

      expect(loaded.messages.map(messageText)).toEqual([
        'The tests in packages/api fail since this morning. Find out why and fix it.',
        '<summary>The tests fail because fastify is missing; installing it failed (no network).</summary>',
        'Try again',
        '',
        '',
      ]);
      expect(findHistoryProblem(loaded.messages)).toBeUndefined();
      expect(loaded.usage.inputTokens).toBe(14_100);
      expect(loaded.info).toMatchObject({
        title: 'The tests in packages/api fail since this morning. Find out why and fix it.',
        model: 'gpt-5',
        turnCount: 3,
        messageCount: 5,
        tokenCount: 14_870,
        updatedAt: new Date('2026-11-21T16:30:00.000Z'),
      });
      expect((await newStore().load('frozen-fork')).pendingQuestion).toStrictEqual({
        question: 'Which registry mirror should I use?',
        suggestions: ['npmmirror', 'none'],
      });
    });

    it('lists them newest first', async () => {
      expect(await newStore().list()).toMatchObject([
        { id: 'frozen-fork', forkedFrom: { sessionId: 'frozen-v1', messageCount: 2 } },
        { id: 'frozen-v1' },
      ]);
    });

    it('respects a lock left by another machine, which it cannot check, and says how to clear it', async () => {
      expect(await rejectionOf(newStore().open('frozen-fork'))).toMatchObject({
        code: 'session_locked',
        message:
          'Session frozen-fork is open in process 999999999 on gone-host.invalid (since 2026-11-22T08:00:00.000Z), ' +
          'another machine, where agentloop cannot check that it still runs. Close that agentloop (or wait for it ' +
          'to end) and try again, or start a new session. If that process is gone, clear its lock: ' +
          `sqlite3 "${file}" "UPDATE sessions SET writer = NULL WHERE id = 'frozen-fork'".`,
      });
    });

    it('is written on', async () => {
      const store = newStore();
      await store.open('frozen-v1');
      for (const message of turnMessages(4)) await store.append('frozen-v1', message);
      await store.commit('frozen-v1', { usage: usage(1, 1) });

      expect(await newStore().load('frozen-v1')).toMatchObject({ info: { turnCount: 4, messageCount: 9 } });
    });
  });
});

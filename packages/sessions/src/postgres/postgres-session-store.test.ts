import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { emptyUsage, findHistoryProblem, messageText, userMessage } from '@agentloop/spec';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rejectionOf } from '../test-support/caught.js';
import { postgresStoreKind, tempFolder } from '../test-support/store-kinds.js';
import { POSTGRES_SCHEMA_VERSION } from './postgres-schema.js';
import { PostgresSessionStore } from './postgres-session-store.js';

const kind = await postgresStoreKind();
const FIXTURE = new URL('../__fixtures__/postgres-sessions-v1.sql', import.meta.url);

/** What `promise` rejected with, failing the test when it resolved. */
describe.skipIf(!kind)('PostgresSessionStore', () => {
  let folder: ReturnType<typeof tempFolder>;
  let connectionString: string;
  const closers: (() => Promise<void>)[] = [];
  /** A store with its own pool, as another app server would have; `now` is its lease clock. */
  const newStore = (options: { now?: () => number; leaseMs?: number } = {}) => {
    const store = new PostgresSessionStore({ connectionString, ...options });
    closers.push(() => store.close());
    return store;
  };
  const query = async (text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  beforeEach(async () => {
    folder = tempFolder();
    connectionString = kind!.location(folder.path);
    await kind!.prepare!(connectionString);
  });

  afterEach(async () => {
    vi.useRealTimers();
    for (const close of closers.splice(0)) await close();
    folder.remove();
  });

  it('lets one of two app servers racing for a session open it; the other gets session_locked', async () => {
    const [a, b] = [newStore(), newStore()];
    await a.create({ id: 's1' });

    const results = await Promise.allSettled([a.open('s1'), b.open('s1')]);

    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: 'session_locked', sessionId: 's1' });
  });

  it('hands a session whose holder stopped renewing its lease to another server once the lease ran out', async () => {
    let time = 1_000_000;
    const now = () => time;
    // A lease long enough that the holder's real renewal timer cannot fire during the test.
    const leaseMs = 600_000;
    const holder = newStore({ now, leaseMs });
    const other = newStore({ now, leaseMs });
    await holder.create({ id: 's1' });
    await holder.open('s1');
    await holder.append('s1', userMessage('first'));
    await holder.commit('s1', { usage: emptyUsage() });

    time += leaseMs - 1;
    expect(await rejectionOf(other.open('s1'))).toMatchObject({ code: 'session_locked' });
    time += 2;
    const opened = await other.open('s1');

    expect(opened.messages).toEqual([userMessage('first')]);
    const [row] = await query('SELECT fence::int AS fence FROM agentloop_sessions');
    expect(row).toEqual({ fence: 2 });
  });

  it('refuses the commit of a paused holder whose lease was taken over, and keeps the new holder’s turns', async () => {
    let time = 1_000_000;
    const leaseMs = 600_000;
    const paused = newStore({ now: () => time, leaseMs });
    const taker = newStore({ now: () => time, leaseMs });
    await paused.create({ id: 's1' });
    await paused.open('s1');
    await paused.append('s1', userMessage('written while paused'));

    time += leaseMs + 1;
    await taker.open('s1');
    await taker.append('s1', userMessage('the new holder'));
    await taker.commit('s1', { usage: emptyUsage() });
    const error = await rejectionOf(paused.commit('s1', { usage: emptyUsage() }));

    expect(error).toMatchObject({ code: 'session_locked', sessionId: 's1' });
    expect((error as Error).message).toContain('lost its lease');
    expect((await taker.load('s1')).messages).toEqual([userMessage('the new holder')]);
  });

  it('lets a holder whose lease ran out commit while nobody took the session over', async () => {
    let time = 1_000_000;
    const leaseMs = 600_000;
    const store = newStore({ now: () => time, leaseMs });
    await store.create({ id: 's1' });
    await store.open('s1');
    await store.append('s1', userMessage('late'));
    time += 10 * leaseMs;

    await store.commit('s1', { usage: emptyUsage() });

    expect((await newStore().load('s1')).messages).toEqual([userMessage('late')]);
  });

  it('renews the lease while the holder lives, so no other server takes it after the first lease', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let time = 1_000_000;
    const leaseMs = 30_000;
    const holder = newStore({ now: () => time, leaseMs });
    await holder.create({ id: 's1' });
    await holder.open('s1');

    time += 20_000;
    vi.advanceTimersByTime(leaseMs / 3);
    await vi.waitFor(async () => {
      const [row] = await query('SELECT lease_until::float8 AS lease_until FROM agentloop_sessions');
      expect(row?.lease_until).toBe(time + leaseMs);
    });
    time += 20_000;

    expect(await rejectionOf(newStore({ now: () => time, leaseMs }).open('s1'))).toMatchObject({
      code: 'session_locked',
    });
  });

  it('takes over at once a lock whose holder on this machine is gone, before its lease ends', async () => {
    const store = newStore();
    await store.create({ id: 's1' });
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const writer = { pid: deadPid, host: hostname(), token: 'gone', since: new Date().toISOString() };
    await query('UPDATE agentloop_sessions SET writer = $1, lease_until = $2, fence = 7', [
      JSON.stringify(writer),
      Date.now() + 600_000,
    ]);

    await store.open('s1');

    const [row] = await query('SELECT writer, fence::int AS fence FROM agentloop_sessions');
    expect(row?.fence).toBe(8);
    expect(JSON.parse(String(row?.writer))).toMatchObject({ pid: process.pid });
  });

  it('names the other machine and the end of its lease when a holder elsewhere has the session', async () => {
    const store = newStore();
    await store.create({ id: 's1' });
    const writer = { pid: 42, host: 'other-server', token: 't', since: '2026-01-01T00:00:00.000Z' };
    await query('UPDATE agentloop_sessions SET writer = $1, lease_until = $2', [JSON.stringify(writer), 4102444800000]);

    const error = await rejectionOf(store.open('s1'));

    expect(error).toMatchObject({ code: 'session_locked' });
    expect((error as Error).message).toContain(
      'open in process 42 on other-server (since 2026-01-01T00:00:00.000Z), another machine, whose lease runs until 2100-01-01T00:00:00.000Z',
    );
  });

  it('migrates a new database once when several servers open it at once', async () => {
    const stores = [newStore(), newStore(), newStore()];

    await Promise.all(stores.map((store, index) => store.create({ id: `s${index}` })));

    expect(await query('SELECT version FROM agentloop_schema')).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
    expect((await stores[0]!.list()).map((info) => info.id).sort()).toEqual(['s0', 's1', 's2']);
  });

  it('refuses a database of a newer schema version, saying to update', async () => {
    await newStore().create({ id: 's1' });
    await query('UPDATE agentloop_schema SET version = 99');

    const error = await rejectionOf(newStore().load('s1'));

    expect(error).toMatchObject({ code: 'unsupported_session_version' });
    expect((error as Error).message).toMatch(/schema version 99; .* reads up to version 1\. Update agentloop/);
  });

  it('uses a pool the app gives it, and leaves it open on close', async () => {
    const pool = new pg.Pool({ connectionString });
    closers.push(() => pool.end());
    const store = new PostgresSessionStore({ pool });
    await store.create({ id: 's1', title: 'shared pool' });
    await store.close();

    expect(await pool.query('SELECT title FROM agentloop_sessions')).toMatchObject({
      rows: [{ title: 'shared pool' }],
    });
  });

  it('says which database it cannot reach, without the password', async () => {
    const unreachable = new PostgresSessionStore({ connectionString: 'postgresql://me:secret@127.0.0.1:1/app' });
    closers.push(() => unreachable.close());

    const error = await rejectionOf(unreachable.list());

    expect(error).toMatchObject({ code: 'store_failed' });
    expect((error as Error).message).toMatch(/^Cannot reach PostgreSQL database app on 127\.0\.0\.1:1: .*ECONNREFUSED/);
    expect((error as Error).message).not.toContain('secret');
  });

  it.each([
    [{}, /needs a `connectionString`/],
    [{ connectionString: '' }, /needs a `connectionString`/],
    [{ connectionString: 'postgres://x/y', leaseMs: 10 }, /leaseMs must be at least 1000 milliseconds, not 10/],
  ])('refuses the options %j, saying what is wrong', (options, message) => {
    expect(() => new PostgresSessionStore(options as never)).toThrow(message);
  });

  describe('a database of schema version 1, as released', () => {
    beforeEach(async () => {
      await query(readFileSync(FIXTURE, 'utf8'));
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
      expect(loaded.info).toMatchObject({
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

    it('takes over a session whose lease ran out, and goes on from it', async () => {
      const store = newStore();
      await store.open('frozen-v1');
      await store.append('frozen-v1', userMessage('And now?'));
      await store.commit('frozen-v1', { usage: emptyUsage() });

      const loaded = await newStore().load('frozen-v1');
      expect(loaded.messages.map(messageText).slice(-2)).toEqual(['', 'And now?']);
      expect(loaded.info.turnCount).toBe(4);
      expect(await query("SELECT fence::int AS fence FROM agentloop_sessions WHERE id = 'frozen-v1'")).toEqual([
        { fence: 4 },
      ]);
    });
  });
});

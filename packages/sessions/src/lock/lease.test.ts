import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionStore } from '@agentloop/memory';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JsonlSessionStore } from '../jsonl/jsonl-session-store.js';
import { SqliteSessionStore } from '../sqlite/sqlite-session-store.js';
import { rejectionOf } from '../test-support/caught.js';
import { turnMessages, usage } from '../test-support/conversation.js';
import { tempFolder } from '../test-support/store-kinds.js';
import type { SessionWriter } from './session-writer.js';

// The file stores' lease: a folder or database file shared by several machines (a network file system)
// must not keep a session locked forever when its holder there died. The clock is injected, so no test
// waits for a lease to run out.

interface FileStoreKind {
  name: string;
  open(folder: string, options: { leaseMs?: number; now?: () => number }): SessionStore;
  /** Writes `writer` as the session's lock, as another machine's process would. */
  plantLock(folder: string, sessionId: string, writer: SessionWriter): void;
  /** The session's lock as the store keeps it. */
  readLock(folder: string, sessionId: string): SessionWriter | undefined;
}

const KINDS: FileStoreKind[] = [
  {
    name: 'jsonl',
    open: (folder, options) => new JsonlSessionStore({ directory: join(folder, 'sessions'), ...options }),
    plantLock: (folder, id, writer) => writeFileSync(join(folder, 'sessions', `${id}.lock`), JSON.stringify(writer)),
    readLock: (folder, id) => {
      try {
        return JSON.parse(readFileSync(join(folder, 'sessions', `${id}.lock`), 'utf8'));
      } catch {
        return undefined;
      }
    },
  },
  {
    name: 'sqlite',
    open: (folder, options) => new SqliteSessionStore({ file: join(folder, 'sessions.sqlite'), ...options }),
    plantLock: (folder, id, writer) => {
      const db = new Database(join(folder, 'sessions.sqlite'));
      db.prepare('UPDATE sessions SET writer = ? WHERE id = ?').run(JSON.stringify(writer), id);
      db.close();
    },
    readLock: (folder, id) => {
      const db = new Database(join(folder, 'sessions.sqlite'), { readonly: true });
      const row = db.prepare('SELECT writer FROM sessions WHERE id = ?').get(id) as { writer: string | null };
      db.close();
      return row.writer === null ? undefined : JSON.parse(row.writer);
    },
  },
];

const START = Date.parse('2026-11-27T12:00:00.000Z');
const elsewhere = (leaseUntil?: number): SessionWriter => ({
  pid: 4242,
  host: 'worker-2.invalid',
  token: 'theirs',
  since: '2026-11-27T11:59:00.000Z',
  ...(leaseUntil === undefined ? {} : { leaseUntil }),
});

describe.each(KINDS)('the $name store’s lease', (kind) => {
  let folder: ReturnType<typeof tempFolder>;
  let clock: number;
  const now = () => clock;
  const stores: SessionStore[] = [];
  const open = (leaseMs = 10_000) => {
    const store = kind.open(folder.path, { leaseMs, now });
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    folder = tempFolder();
    clock = START;
    await open().create({ id: 's1' });
  });

  afterEach(async () => {
    vi.useRealTimers();
    for (const store of stores.splice(0)) await store.close();
    folder.remove();
  });

  it('writes a lease with the lock, a lease’s length from now', async () => {
    await open(10_000).open('s1');
    expect(kind.readLock(folder.path, 's1')).toMatchObject({ leaseUntil: START + 10_000 });
  });

  it('respects a holder on another machine while its lease runs, and says when it ends', async () => {
    kind.plantLock(folder.path, 's1', elsewhere(START + 5_000));
    clock = START + 4_999;
    expect(await rejectionOf(open().open('s1'))).toMatchObject({
      code: 'session_locked',
      message:
        'Session s1 is open in process 4242 on worker-2.invalid (since 2026-11-27T11:59:00.000Z), another machine, ' +
        'whose lease runs until 2026-11-27T12:00:05.000Z. Close that agentloop (or wait for it to end) and try ' +
        'again, or start a new session. If that process is gone, the session is free when its lease ends.',
    });
  });

  it('takes over from a holder on another machine once its lease ran out, and that holder can no longer write', async () => {
    kind.plantLock(folder.path, 's1', elsewhere(START + 5_000));
    clock = START + 5_000;
    const store = open();
    await store.open('s1');
    for (const message of turnMessages(1)) await store.append('s1', message);
    await store.commit('s1', { usage: usage(1, 1) });
    expect(kind.readLock(folder.path, 's1')).toMatchObject({ host: expect.any(String), leaseUntil: START + 15_000 });
    expect(kind.readLock(folder.path, 's1')?.token).not.toBe('theirs');
    expect((await open().load('s1')).info.turnCount).toBe(1);
  });

  it('keeps a lock of another machine without a lease (an older version wrote it) until it is cleared', async () => {
    kind.plantLock(folder.path, 's1', elsewhere());
    clock = START + 365 * 24 * 3_600_000;
    expect(await rejectionOf(open().open('s1'))).toMatchObject({
      code: 'session_locked',
      message: expect.stringContaining('where agentloop cannot check that it still runs'),
    });
  });

  it('renews its lease while the session is open, and stops when it is released', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const store = open(3_000);
    await store.open('s1');
    clock = START + 60_000;
    // Renewals come every third of a lease.
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(kind.readLock(folder.path, 's1')?.leaseUntil).toBe(START + 63_000));
    // Nobody on another machine may take it: its lease runs again.
    const other = open(3_000);
    expect(await rejectionOf(other.open('s1'))).toMatchObject({ code: 'session_locked' });

    await store.release('s1');
    clock = START + 120_000;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(kind.readLock(folder.path, 's1')).toBeUndefined();
  });

  it('refuses a lease shorter than a second, saying what it must be', () => {
    expect(() => kind.open(folder.path, { leaseMs: 500 })).toThrow(
      /SessionStore's leaseMs must be at least 1000 milliseconds, not 500\./,
    );
  });
});

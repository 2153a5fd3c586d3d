import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { userMessage } from '@agentloop/spec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlSessionStore } from './jsonl/jsonl-session-store.js';
import { SqliteSessionStore } from './sqlite/sqlite-session-store.js';
import { usage } from './test-support/conversation.js';
import { tempFolder } from './test-support/store-kinds.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

// Whole conversations, file contents and command output are in there: for their owner alone. Windows has
// no such modes.
describe.skipIf(process.platform === 'win32')('the modes of session data', () => {
  let folder: ReturnType<typeof tempFolder>;

  beforeEach(() => {
    folder = tempFolder();
  });

  afterEach(() => folder.remove());

  it('JSON lines: the folders it makes are 0700, its session and lock files 0600', async () => {
    const directory = join(folder.path, 'data', 'sessions');
    const store = new JsonlSessionStore({ directory });
    await store.create({ id: 's1' });
    await store.open('s1');
    await store.append('s1', userMessage('secret'));
    await store.commit('s1', { usage: usage(1, 1) });
    await store.fork('s1', { id: 's2' });

    expect(modeOf(join(folder.path, 'data'))).toBe(0o700);
    expect(modeOf(directory)).toBe(0o700);
    expect(modeOf(join(directory, 's1.jsonl'))).toBe(0o600);
    expect(modeOf(join(directory, 's1.lock'))).toBe(0o600);
    expect(modeOf(join(directory, 's2.jsonl'))).toBe(0o600);
    await store.close();
  });

  it('JSON lines: a session file an earlier version left readable by all is made private when opened', async () => {
    const directory = join(folder.path, 'sessions');
    const first = new JsonlSessionStore({ directory });
    await first.create({ id: 's1' });
    chmodSync(join(directory, 's1.jsonl'), 0o644);

    const store = new JsonlSessionStore({ directory });
    await store.open('s1');
    expect(modeOf(join(directory, 's1.jsonl'))).toBe(0o600);
    await store.close();
  });

  it('SQLite: the folders it makes are 0700, the database and its -wal and -shm files 0600', async () => {
    const file = join(folder.path, 'data', 'sessions', 'sessions.sqlite');
    const store = new SqliteSessionStore({ file });
    await store.create({ id: 's1' });
    await store.open('s1');
    await store.append('s1', userMessage('secret'));
    await store.commit('s1', { usage: usage(1, 1) });

    expect(modeOf(join(folder.path, 'data'))).toBe(0o700);
    expect(modeOf(join(folder.path, 'data', 'sessions'))).toBe(0o700);
    expect({
      database: modeOf(file),
      wal: modeOf(`${file}-wal`),
      shm: modeOf(`${file}-shm`),
    }).toEqual({ database: 0o600, wal: 0o600, shm: 0o600 });
    await store.close();
  });

  it('SQLite: a database an earlier version left readable by all is made private when opened', async () => {
    const file = join(folder.path, 'sessions.sqlite');
    await new SqliteSessionStore({ file }).close();
    chmodSync(file, 0o644);
    // A -wal and -shm left by a process that did not close the database.
    for (const leftover of [`${file}-wal`, `${file}-shm`]) writeFileSync(leftover, '', { mode: 0o644 });

    const store = new SqliteSessionStore({ file });
    expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    await store.close();
  });

  it('leaves the mode of a folder it did not make as it is', async () => {
    const directory = join(folder.path, 'mine');
    mkdirSync(directory, { mode: 0o755 });
    chmodSync(directory, 0o755);
    const store = new SqliteSessionStore({ file: join(directory, 'sessions.sqlite') });
    expect(modeOf(directory)).toBe(0o755);
    await store.close();
  });
});

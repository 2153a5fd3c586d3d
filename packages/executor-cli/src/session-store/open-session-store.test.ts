import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from './open-session-store.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

// Windows has no such modes.
describe.skipIf(process.platform === 'win32')('openSessionStore', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'agentloop-store-'));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it.each(['sqlite', 'jsonl'] as const)(
    'makes agentloop’s own %s sessions folder private, also one an earlier version made 0755',
    async (kind) => {
      const folder = join(root, 'sessions');
      mkdirSync(folder);
      chmodSync(folder, 0o755);
      const path = kind === 'sqlite' ? join(folder, 'sessions.sqlite') : folder;
      const store = await openSessionStore({ kind, path, defaultFolder: true });
      await store.create({ id: 's1' });
      expect(modeOf(folder)).toBe(0o700);
      await store.close();
    },
  );

  it('makes a missing sessions folder, and its parents, 0700', async () => {
    const store = await openSessionStore({
      kind: 'sqlite',
      path: join(root, 'data', 'sessions', 'sessions.sqlite'),
      defaultFolder: true,
    });
    expect([modeOf(join(root, 'data')), modeOf(join(root, 'data', 'sessions'))]).toEqual([0o700, 0o700]);
    await store.close();
  });

  it('leaves the mode of a folder the configuration names as it is', async () => {
    const folder = join(root, 'kept');
    mkdirSync(folder);
    chmodSync(folder, 0o755);
    const store = await openSessionStore({
      kind: 'sqlite',
      path: join(folder, 'sessions.sqlite'),
      defaultFolder: false,
    });
    expect(modeOf(folder)).toBe(0o755);
    expect(modeOf(join(folder, 'sessions.sqlite'))).toBe(0o600);
    await store.close();
  });

  it('opens a PostgreSQL store on the connection string of a postgres location', async () => {
    const store = await openSessionStore({
      kind: 'postgres',
      path: 'the PostgreSQL database of $DATABASE_URL',
      defaultFolder: false,
      connectionString: 'postgresql://agent:secret@127.0.0.1:1/agents',
    });
    // Nothing listens on port 1: the store's error says which database it tried.
    await expect(store.list()).rejects.toThrow(/^Cannot reach PostgreSQL database agents on 127\.0\.0\.1:1: /);
    await store.close();
  });
});

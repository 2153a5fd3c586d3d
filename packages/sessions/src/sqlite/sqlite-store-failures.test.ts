import { closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { SessionStoreError } from '@agentloop/memory';
import { userMessage } from '@agentloop/spec';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { thrownBy } from '../test-support/caught.js';
import { usage } from '../test-support/conversation.js';
import { tempFolder } from '../test-support/store-kinds.js';
import { SqliteSessionStore } from './sqlite-session-store.js';

// The driver seam: tests run as root, where a read-only folder cannot be made with chmod, and a disk
// cannot be filled; so the Database better-sqlite3 gives the store is wrapped here. `maxPages` makes
// SQLite itself fail writes with SQLITE_FULL past that size; `cannotOpen` fails the open as SQLite does
// in a folder it cannot write its -wal and -shm files to.
const faults = vi.hoisted(() => ({ maxPages: undefined as number | undefined, cannotOpen: false }));

vi.mock('./load-sqlite.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./load-sqlite.js')>();
  return {
    ...actual,
    loadSqlite: () => {
      const Database = actual.loadSqlite();
      return class FaultyDatabase extends Database {
        constructor(...args: ConstructorParameters<typeof Database>) {
          if (faults.cannotOpen)
            throw Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
          super(...args);
          if (faults.maxPages !== undefined) this.pragma(`max_page_count = ${faults.maxPages}`);
        }
      };
    },
  };
});

describe('SqliteSessionStore on a failing disk or a damaged file', () => {
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
    file = join(folder.path, 'sessions.sqlite');
    faults.maxPages = undefined;
    faults.cannotOpen = false;
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close().catch(() => {});
    folder.remove();
  });

  it('refuses a file whose header is garbage with one line naming it and saying to move it aside', () => {
    writeFileSync(file, Buffer.alloc(8192, 0x5a));
    const error = thrownBy(() => newStore());
    expect(error).toBeInstanceOf(SessionStoreError);
    expect(error).toMatchObject({
      code: 'store_damaged',
      message: `${file} is damaged: file is not a database (SQLITE_NOTADB). Move it aside (mv "${file}" "${file}.damaged") and a new one is started; the sessions in it cannot be read.`,
    });
    expect((error as Error).message).not.toContain('\n');
  });

  it('reports a garbage page, on load and on list, as store_damaged naming the file', async () => {
    const store = newStore();
    await store.create({ id: 's1' });
    await store.open('s1');
    for (let index = 0; index < 40; index++) await store.append('s1', userMessage(`${'x'.repeat(500)} ${index}`));
    await store.commit('s1', { usage: usage(1, 1) });
    await stores.pop()!.close();
    // Every page but the first (the header and the schema) becomes garbage.
    const handle = openSync(file, 'r+');
    const size = statSync(file).size;
    writeSync(handle, Buffer.alloc(size - 4096, 0x5a), 0, size - 4096, 4096);
    closeSync(handle);

    const damaged = newStore();
    for (const operation of [() => damaged.load('s1'), () => damaged.list()]) {
      await expect(operation()).rejects.toMatchObject({
        code: 'store_damaged',
        message: expect.stringMatching(
          new RegExp(
            `^${escapeRegExp(file)} is damaged: database disk image is malformed \\(SQLITE_CORRUPT\\)\\. Move it aside`,
          ),
        ),
      });
    }
  });

  it('fails a commit on a full disk with store_failed naming the file, and keeps the turns saved before', async () => {
    const store = newStore();
    await store.create({ id: 's1' });
    await store.open('s1');
    await store.append('s1', userMessage('first'));
    await store.commit('s1', { usage: usage(1, 1) });
    await stores.pop()!.close();

    // Closed, the database is checkpointed into its file: one page more than it has is all it may grow.
    faults.maxPages = statSync(file).size / 4096 + 1;
    const full = newStore();
    await full.open('s1');
    await full.append('s1', userMessage('y'.repeat(64 * 1024)));
    const error = await full.commit('s1', { usage: usage(1, 1) }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SessionStoreError);
    expect(error).toMatchObject({
      code: 'store_failed',
      sessionId: 's1',
      message: `${file} cannot be written, the disk is full: database or disk is full (SQLITE_FULL). Free some space and try again.`,
    });
    faults.maxPages = undefined;
    expect((await newStore().load('s1')).messages).toEqual([userMessage('first')]);
  });

  it('says a folder it cannot open the database in must be readable and writable', () => {
    faults.cannotOpen = true;
    expect(thrownBy(() => newStore())).toMatchObject({
      code: 'store_failed',
      message: `${file} cannot be opened: unable to open database file (SQLITE_CANTOPEN). SQLite reads and writes the file and the -wal and -shm files beside it: make ${folder.path} readable and writable for this user, or keep the sessions in another folder.`,
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

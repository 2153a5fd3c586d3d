import { join } from 'node:path';
import { SessionStoreError } from '@agentloop/memory';
import { userMessage } from '@agentloop/spec';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { usage } from '../test-support/conversation.js';
import { scriptedAgent, scriptedTurn } from '../test-support/scripted-turns.js';
import { tempFolder } from '../test-support/store-kinds.js';
import { JsonlSessionStore } from './jsonl-session-store.js';

// The file system seam: tests run as root, where chmod does not make a folder read-only, and a disk cannot
// be filled; so the store's `open` is wrapped here. `openFails` fails opening a file for writing, as a
// read-only file system does; `writeFails` fails each write to an open file, as a full disk does.
const faults = vi.hoisted(() => ({ openFails: undefined as unknown, writeFails: undefined as unknown }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof actual.open = async (file, flags, mode) => {
    if (faults.openFails !== undefined && flags !== 'r') throw faults.openFails;
    const handle = await actual.open(file, flags, mode);
    const write = handle.write.bind(handle) as (...args: unknown[]) => Promise<unknown>;
    Object.assign(handle, {
      write: (...args: unknown[]) =>
        faults.writeFails === undefined ? write(...args) : Promise.reject(faults.writeFails),
    });
    return handle;
  };
  return { ...actual, open };
});

function systemError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

describe('JsonlSessionStore on a failing disk', () => {
  let folder: ReturnType<typeof tempFolder>;
  let directory: string;

  beforeEach(() => {
    folder = tempFolder();
    directory = join(folder.path, 'sessions');
    faults.openFails = undefined;
    faults.writeFails = undefined;
  });

  afterEach(() => folder.remove());

  it('fails a turn on a full disk with store_failed naming the file, and keeps the turns saved before', async () => {
    const store = new JsonlSessionStore({ directory });
    await store.create({ id: 's1' });
    await store.open('s1');
    await store.append('s1', userMessage('first'));
    await store.commit('s1', { usage: usage(1, 1) });

    faults.writeFails = systemError('ENOSPC', 'no space left on device, write');
    const failedAppend = await store.append('s1', userMessage('second')).catch((thrown: unknown) => thrown);
    const failedCommit = await store.commit('s1', { usage: usage(1, 1) }).catch((thrown: unknown) => thrown);
    const file = join(directory, 's1.jsonl');
    for (const error of [failedAppend, failedCommit]) {
      expect(error).toBeInstanceOf(SessionStoreError);
      expect(error).toMatchObject({
        code: 'store_failed',
        sessionId: 's1',
        message: `${file} cannot be written, the disk is full: ENOSPC: no space left on device, write. Free some space and try again.`,
        cause: faults.writeFails,
      });
    }
    faults.writeFails = undefined;
    await store.close();
    expect((await new JsonlSessionStore({ directory }).load('s1')).messages).toEqual([userMessage('first')]);
  });

  it('fails to create a session in a read-only folder with store_failed saying to make it writable', async () => {
    faults.openFails = systemError('EROFS', `read-only file system, open '${join(directory, 's1.jsonl')}'`);
    const error = await new JsonlSessionStore({ directory }).create({ id: 's1' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SessionStoreError);
    expect(error).toMatchObject({
      code: 'store_failed',
      sessionId: 's1',
      message: `${join(directory, 's1.jsonl')} cannot be written: EROFS: read-only file system, open '${join(directory, 's1.jsonl')}'. Make ${directory} writable for this user, or keep the sessions in another folder.`,
    });
  });
  it("ends an agent's run on a full disk with exit error and the store's error naming the file", async () => {
    const store = new JsonlSessionStore({ directory });
    const { agent } = scriptedAgent([...scriptedTurn(1), ...scriptedTurn(2), ...scriptedTurn(3)], {
      session: { store, id: 's1' },
    });
    await agent.run('one');
    faults.writeFails = systemError('ENOSPC', 'no space left on device, write');
    const result = await agent.run('two');
    expect(result).toMatchObject({
      exit: 'error',
      error: {
        code: 'store_failed',
        sessionId: 's1',
        message: `${join(directory, 's1.jsonl')} cannot be written, the disk is full: ENOSPC: no space left on device, write. Free some space and try again.`,
      },
    });
    faults.writeFails = undefined;
    expect((await new JsonlSessionStore({ directory }).load('s1')).messages).toHaveLength(5);
    await expect(agent.run('three')).resolves.toMatchObject({ exit: 'task_completion' });
    expect((await new JsonlSessionStore({ directory }).load('s1')).messages).toStrictEqual(agent.memory.messages());
    await store.close();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionInfo, SessionStore } from '@agentloop/core';
import { JsonlSessionStore } from '@agentloop/sessions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseSession } from './choose-session.js';

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('chooseSession', () => {
  let folder: string;
  let store: SessionStore;
  const where = 'the store';
  const never = async () => {
    throw new Error('no list expected');
  };

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'agentloop-choose-'));
    store = new JsonlSessionStore({ directory: folder });
    // Made one after the other, so that each is newer than the one before.
    for (const [id, workspace] of [
      ['aaa-old-here', '/work/here'],
      ['bbb-elsewhere', '/work/there'],
      ['abc-new-here', '/work/here'],
    ]) {
      await store.create({ id: id!, workspace: workspace! });
      await store.open(id!);
      await store.commit(id!, {
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      });
      await store.release(id!);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });

  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('starts a new session without --continue or --resume', async () => {
    const chosen = await chooseSession(store, {}, { cwd: '/work/here', where, pick: never });

    expect(chosen).toMatchObject({ resumed: false });
    expect(chosen?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('continues the last session of the directory', async () => {
    expect(await chooseSession(store, { continue: true }, { cwd: '/work/here', where, pick: never })).toEqual({
      id: 'abc-new-here',
      resumed: true,
    });
  });

  it('starts anew, saying so, when the directory has no session to continue', async () => {
    const chosen = await chooseSession(store, { continue: true }, { cwd: '/work/new', where, pick: never });

    expect(chosen).toMatchObject({ resumed: false, notice: 'No earlier session in /work/new: this one starts anew.' });
  });

  it('resumes a session by its id, or by the start of one', async () => {
    const options = { cwd: '/work/here', where, pick: never };

    expect(await chooseSession(store, { resume: 'abc-new-here' }, options)).toEqual({
      id: 'abc-new-here',
      resumed: true,
    });
    expect(await chooseSession(store, { resume: 'abc' }, options)).toEqual({ id: 'abc-new-here', resumed: true });
  });

  it('warns that a session of another directory, named by its id, resumes in this one', async () => {
    const options = { cwd: '/work/here', where, pick: never };

    expect(await chooseSession(store, { resume: 'bbb' }, options)).toEqual({
      id: 'bbb-elsewhere',
      resumed: true,
      warning:
        'Session bbb-elsewhere was saved in /work/there, not in this directory: it resumes here, in /work/here, where its tools now read, write and run commands. To continue it where it was, run agentloop --resume bbb-elsewhere in /work/there.',
    });
  });

  it('warns that a session of another directory, picked from the list, resumes in this one', async () => {
    const chosen = await chooseSession(
      store,
      { resume: true },
      { cwd: '/work/here', where, pick: async () => 'bbb-elsewhere' },
    );

    expect(chosen).toMatchObject({ id: 'bbb-elsewhere', resumed: true });
    expect(chosen?.warning).toMatch(/^Session bbb-elsewhere was saved in \/work\/there, not in this directory/);
  });

  it('says when an id names no session, or the start of several', async () => {
    const options = { cwd: '/work/here', where, pick: never };

    expect(await rejectionOf(chooseSession(store, { resume: 'zzz' }, options))).toMatchObject({
      code: 'unknown_session',
      message: 'No session "zzz" in the store: agentloop sessions --all lists them.',
    });
    expect(await rejectionOf(chooseSession(store, { resume: 'a' }, options))).toMatchObject({
      code: 'ambiguous_session',
      message: expect.stringContaining('"a" starts the ids of 2 sessions'),
    });
  });

  it("offers this directory's sessions first, newest first, then the others, to pick from", async () => {
    let offered: readonly SessionInfo[] = [];
    const chosen = await chooseSession(
      store,
      { resume: true },
      {
        cwd: '/work/here',
        where,
        pick: async (sessions) => {
          offered = sessions;
          return sessions[1]!.id;
        },
      },
    );

    expect(offered.map((session) => session.id)).toEqual(['abc-new-here', 'aaa-old-here', 'bbb-elsewhere']);
    expect(chosen).toEqual({ id: 'aaa-old-here', resumed: true });
  });

  it('resolves with nothing when the user backs out of the list', async () => {
    expect(
      await chooseSession(store, { resume: true }, { cwd: '/work/here', where, pick: async () => undefined }),
    ).toBeUndefined();
  });

  it('says when there is no session to pick from', async () => {
    const empty = new JsonlSessionStore({ directory: join(folder, 'empty') });

    expect(await rejectionOf(chooseSession(empty, { resume: true }, { cwd: '/x', where, pick: never }))).toMatchObject({
      code: 'no_session',
    });
  });
});

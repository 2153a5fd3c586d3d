import { appendFileSync, copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findHistoryProblem, messageText, userMessage } from '@agentloop/spec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rejectionOf } from '../test-support/caught.js';
import { turnMessages, usage } from '../test-support/conversation.js';
import { tempFolder } from '../test-support/store-kinds.js';
import { JsonlSessionStore } from './jsonl-session-store.js';

const FIXTURE = new URL('../__fixtures__/session-v1.jsonl', import.meta.url);

describe('JsonlSessionStore', () => {
  let folder: ReturnType<typeof tempFolder>;
  let directory: string;
  let store: JsonlSessionStore;

  beforeEach(() => {
    folder = tempFolder();
    directory = join(folder.path, 'sessions');
    store = new JsonlSessionStore({ directory });
  });

  afterEach(async () => {
    await store.close();
    folder.remove();
  });

  const file = (id: string) => join(directory, `${id}.jsonl`);
  const lines = (id: string) => readFileSync(file(id), 'utf8').trimEnd().split('\n');

  it('writes one file per session: a header, a line per message, a commit line per turn', async () => {
    await store.create({ id: 's1', workspace: '/work/app' });
    await store.open('s1');
    for (const message of turnMessages(1)) await store.append('s1', message);
    await store.commit('s1', { usage: usage(10, 5), exit: 'task_completion', title: 'Question 1', model: 'm' });

    const records = lines('s1').map((line) => JSON.parse(line));
    expect(records.map((record) => record.type)).toEqual([
      'session',
      'message',
      'message',
      'message',
      'message',
      'commit',
    ]);
    expect(records[0]).toMatchObject({ type: 'session', version: 1, id: 's1', workspace: '/work/app' });
    expect(records[5]).toMatchObject({
      type: 'commit',
      turn: 1,
      exit: 'task_completion',
      title: 'Question 1',
      model: 'm',
      messageCount: 4,
      totalUsage: usage(10, 5),
    });
  });

  it('writes each message when it is appended, before the commit', async () => {
    await store.create({ id: 's1' });
    await store.open('s1');
    await store.append('s1', userMessage('on disk already'));

    expect(JSON.parse(lines('s1')[1]!)).toMatchObject({
      type: 'message',
      turn: 1,
      message: userMessage('on disk already'),
    });
  });

  it('cuts off an unfinished turn when it opens the session, so the next turn starts on a line of its own', async () => {
    await store.create({ id: 's1' });
    await store.open('s1');
    for (const message of turnMessages(1)) await store.append('s1', message);
    await store.commit('s1', { usage: usage(1, 1) });
    const committedSize = statSync(file('s1')).size;
    // What a writer killed in the middle of a turn leaves: whole lines, then half of one.
    appendFileSync(
      file('s1'),
      `${JSON.stringify({ type: 'message', turn: 2, message: userMessage('lost') })}\n{"type":"mess`,
    );

    const other = new JsonlSessionStore({ directory });
    await store.close();
    const reopened = await other.open('s1');
    expect(reopened.messages).toStrictEqual(turnMessages(1));
    expect(statSync(file('s1')).size).toBe(committedSize);

    for (const message of turnMessages(2)) await other.append('s1', message);
    await other.commit('s1', { usage: usage(1, 1) });
    await other.close();
    expect((await new JsonlSessionStore({ directory }).load('s1')).messages).toStrictEqual([
      ...turnMessages(1),
      ...turnMessages(2),
    ]);
  });

  it('reads past a half-written last line without changing the file', async () => {
    await store.create({ id: 's1' });
    appendFileSync(file('s1'), '{"type":"message","turn":1,"mess');

    expect((await store.load('s1')).messages).toEqual([]);
    expect(readFileSync(file('s1'), 'utf8')).toMatch(/"mess$/);
  });

  it('says which line of which file is damaged', async () => {
    await store.create({ id: 's1' });
    appendFileSync(file('s1'), 'not json\n{"type":"commit","turn":1,"at":"2026-01-01T00:00:00.000Z"}\n');

    expect(await rejectionOf(store.load('s1'))).toMatchObject({
      code: 'invalid_session',
      message: `Session s1: line 2 of ${file('s1')} is damaged (it is not JSON). Repair that line, or move the file aside to start the session over (other sessions are not affected).`,
    });
  });

  it('checks each record against the schema of its file version, and says which line fails and why', async () => {
    await store.create({ id: 's1' });
    const badMessage = { type: 'message', turn: 1, message: { role: 'user', content: [{ type: 'text', text: 7 }] } };
    appendFileSync(file('s1'), `${JSON.stringify(badMessage)}\n`);

    expect(await rejectionOf(store.load('s1'))).toMatchObject({
      code: 'invalid_session',
      sessionId: 's1',
      message: `Session s1: line 2 of ${file('s1')} is damaged (message.content.0.text: Invalid input: expected string, received number). Repair that line, or move the file aside to start the session over (other sessions are not affected).`,
    });
  });

  it('refuses a commit line whose usage is not whole, instead of loading a session with broken totals', async () => {
    await store.create({ id: 's1' });
    const commit = { type: 'commit', turn: 1, at: '2026-01-01T00:00:00.000Z', usage: { inputTokens: 1 } };
    appendFileSync(file('s1'), `${JSON.stringify({ ...commit, messageCount: 0, totalUsage: usage(1, 1) })}\n`);

    expect(await rejectionOf(store.load('s1'))).toMatchObject({
      code: 'invalid_session',
      message: expect.stringContaining(
        `line 2 of ${file('s1')} is damaged (usage.outputTokens: Invalid input: expected number, received undefined)`,
      ),
    });
  });

  it('refuses a header whose creation date is not a date', async () => {
    mkdirSync(directory, { recursive: true });
    writeFileSync(file('s9'), `${JSON.stringify({ type: 'session', version: 1, id: 's9', createdAt: 'yesterday' })}\n`);

    expect(await rejectionOf(store.load('s9'))).toMatchObject({
      code: 'invalid_session',
      sessionId: 's9',
      message: expect.stringMatching(
        /^Session s9: line 1 of .*s9\.jsonl is damaged \(createdAt: Invalid ISO datetime\)/,
      ),
    });
  });

  it('refuses a file written by a newer version, saying so', async () => {
    mkdirSync(directory, { recursive: true });
    writeFileSync(file('s9'), `${JSON.stringify({ type: 'session', version: 2, id: 's9', createdAt: 'x' })}\n`);

    expect(await rejectionOf(store.load('s9'))).toMatchObject({
      code: 'unsupported_session_version',
      message: expect.stringContaining(
        'is a session file of version 2; this version of @agentloop/sessions reads version 1',
      ),
    });
  });

  it('refuses a file renamed to another session id', async () => {
    await store.create({ id: 's1' });
    copyFileSync(file('s1'), file('s2'));

    expect(await rejectionOf(store.load('s2'))).toMatchObject({
      code: 'invalid_session',
      message: expect.stringContaining('holds session s1, not s2'),
    });
  });

  it('lists a session whose last commit lies far from the end of its file', async () => {
    await store.create({ id: 's1' });
    await store.open('s1');
    for (const message of turnMessages(1)) await store.append('s1', message);
    await store.commit('s1', { usage: usage(3, 4), title: 'first' });
    // An unfinished turn longer than the part of the file a list reads first.
    await store.append('s1', userMessage('x'.repeat(200_000)));

    expect(await new JsonlSessionStore({ directory }).list()).toMatchObject([
      { id: 's1', messageCount: 4, tokenCount: 7, title: 'first' },
    ]);
  });

  it('leaves foreign and damaged files out of a list', async () => {
    await store.create({ id: 'good' });
    writeFileSync(join(directory, 'notes.jsonl'), 'hello\n');
    writeFileSync(join(directory, 'README.md'), '# sessions\n');

    expect((await store.list()).map((info) => info.id)).toEqual(['good']);
  });

  it('keeps the lock in a file beside the session while it is open', async () => {
    await store.create({ id: 's1' });
    await store.open('s1');
    expect(JSON.parse(readFileSync(join(directory, 's1.lock'), 'utf8'))).toMatchObject({ pid: process.pid });

    await store.release('s1');
    expect(() => statSync(join(directory, 's1.lock'))).toThrow(/ENOENT/);
  });

  it('takes over a lock whose process is gone', async () => {
    await store.create({ id: 's1' });
    // A pid no process has: what a writer killed with SIGKILL leaves behind.
    const gone = { pid: 2 ** 22 + 12_345, host: (await import('node:os')).hostname(), token: 't', since: 'then' };
    writeFileSync(join(directory, 's1.lock'), JSON.stringify(gone));

    await expect(store.open('s1')).resolves.toMatchObject({ messages: [] });
    expect(JSON.parse(readFileSync(join(directory, 's1.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('fails a commit when another writer took the lock, and leaves that writer’s file alone', async () => {
    await store.create({ id: 's1' });
    await store.open('s1');
    await store.append('s1', userMessage('mine'));
    const thief = { pid: process.ppid, host: (await import('node:os')).hostname(), token: 'other', since: 'now' };
    writeFileSync(join(directory, 's1.lock'), JSON.stringify(thief));
    const size = statSync(file('s1')).size;

    expect(await rejectionOf(store.commit('s1', { usage: usage(0, 0) }))).toMatchObject({ code: 'session_locked' });
    await store.release('s1');
    expect(statSync(file('s1')).size).toBe(size);
    expect(JSON.parse(readFileSync(join(directory, 's1.lock'), 'utf8'))).toMatchObject({ token: 'other' });
  });

  // This file is the format of version 1 as released. It is written by hand and must never be
  // regenerated: if a change breaks these tests, read the old version through a migration instead.
  describe('the frozen version 1 file', () => {
    beforeEach(() => {
      mkdirSync(directory, { recursive: true });
      copyFileSync(FIXTURE, file('frozen-v1'));
    });

    it('loads the conversation of its committed turns: a replace, then the turn after it', async () => {
      const loaded = await store.load('frozen-v1');

      expect(loaded.messages.map(messageText)).toEqual([
        'The tests in packages/api fail since this morning. Find out why and fix it.',
        '<summary>The tests fail because fastify is missing; installing it failed (no network).</summary>',
        'Try again',
        '',
        '',
      ]);
      expect(findHistoryProblem(loaded.messages)).toBeUndefined();
      expect(loaded.pendingQuestion).toBeUndefined();
      expect(loaded.usage).toStrictEqual({
        inputTokens: 14_100,
        outputTokens: 770,
        cacheReadTokens: 3_900,
        cacheWriteTokens: 5_100,
        reasoningTokens: 64,
      });
      expect(loaded.info).toMatchObject({
        id: 'frozen-v1',
        title: 'The tests in packages/api fail since this morning. Find out why and fix it.',
        model: 'gpt-5',
        workspace: '/home/ada/projects/shop',
        turnCount: 3,
        messageCount: 5,
        tokenCount: 14_870,
        createdAt: new Date('2026-11-20T09:00:00.000Z'),
        updatedAt: new Date('2026-11-21T16:30:00.000Z'),
      });
    });

    it('lists it with the figures of its last commit', async () => {
      expect(await store.list()).toMatchObject([{ id: 'frozen-v1', turnCount: 3, messageCount: 5, model: 'gpt-5' }]);
    });

    it('is opened, cut back to its last commit, and written on', async () => {
      await store.open('frozen-v1');
      for (const message of turnMessages(4)) await store.append('frozen-v1', message);
      await store.commit('frozen-v1', { usage: usage(1, 1) });

      const loaded = await new JsonlSessionStore({ directory }).load('frozen-v1');
      expect(loaded.messages).toHaveLength(9);
      expect(loaded.info.turnCount).toBe(4);
      expect(lines('frozen-v1').filter((line) => line.includes('never committed'))).toEqual([]);
    });
  });
});

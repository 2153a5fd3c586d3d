import type { SessionStore } from '@agentloop/memory';
import { SessionStoreError } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import { emptyUsage, userMessage } from '@agentloop/spec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rejectionOf } from './test-support/caught.js';
import { toolStep, turnMessages, usage } from './test-support/conversation.js';
import { storeKindsWithPostgres, tempFolder } from './test-support/store-kinds.js';

/** What `promise` rejected with, failing the test when it resolved. */
/** Opens a session, appends `messages` one by one and commits them as one turn. */
async function writeTurn(store: SessionStore, id: string, messages: readonly Message[], turnUsage = emptyUsage()) {
  for (const message of messages) await store.append(id, message);
  await store.commit(id, { usage: turnUsage, exit: 'task_completion' });
}

// The SessionStore contract, held by every store. Each test uses real files in a temporary folder, or a
// database of its own on a PostgreSQL server of this file.
const STORE_KINDS = await storeKindsWithPostgres();

describe.each(STORE_KINDS)('the $name session store', (kind) => {
  let folder: ReturnType<typeof tempFolder>;
  let location: string;
  const stores: SessionStore[] = [];
  const newStore = (): SessionStore => {
    const store = kind.open(location);
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    folder = tempFolder();
    location = kind.location(folder.path);
    await kind.prepare?.(location);
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    folder.remove();
  });

  describe('create and load', () => {
    it('creates an empty session with the given id, title, model and workspace', async () => {
      const store = newStore();
      const info = await store.create({ id: 's1', title: 'Fix the tests', model: 'm1', workspace: '/work/app' });

      expect(info).toMatchObject({
        id: 's1',
        title: 'Fix the tests',
        model: 'm1',
        workspace: '/work/app',
        turnCount: 0,
        messageCount: 0,
        tokenCount: 0,
      });
      expect(info.updatedAt.getTime()).toBe(info.createdAt.getTime());
      expect(await store.load('s1')).toMatchObject({ messages: [], usage: emptyUsage(), pendingQuestion: undefined });
    });

    it('gives a new session a random id when none is given', async () => {
      const store = newStore();
      const [a, b] = [await store.create(), await store.create()];

      expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(b.id).not.toBe(a.id);
    });

    it('refuses an id that is taken', async () => {
      const store = newStore();
      await store.create({ id: 's1' });

      expect(await rejectionOf(store.create({ id: 's1' }))).toMatchObject({ code: 'session_exists', sessionId: 's1' });
    });

    it.each(['', '../etc', '.hidden', 'a/b', 'a b', 'x'.repeat(129)])('refuses the id %j', async (id) => {
      const error = await rejectionOf(newStore().create({ id }));

      expect(error).toBeInstanceOf(SessionStoreError);
      expect(error).toMatchObject({ code: 'invalid_session_id' });
    });

    it('says which session it does not have', async () => {
      const store = newStore();

      expect(await rejectionOf(store.load('nope'))).toMatchObject({
        code: 'session_not_found',
        message: expect.stringContaining('No session nope in '),
      });
      expect(await rejectionOf(store.open('nope'))).toMatchObject({ code: 'session_not_found' });
    });
  });

  describe('turns', () => {
    it('keeps the messages of committed turns exactly, with the usage and the exit figures', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.open('s1');
      await writeTurn(store, 's1', turnMessages(1), usage(100, 20));
      await writeTurn(store, 's1', turnMessages(2), usage(150, 30));

      const loaded = await newStore().load('s1');
      expect(loaded.messages).toStrictEqual([...turnMessages(1), ...turnMessages(2)]);
      expect(loaded.usage).toStrictEqual(usage(250, 50));
      expect(loaded.info).toMatchObject({ turnCount: 2, messageCount: 8, tokenCount: 300 });
    });

    it('takes the title of the first turn that gives one, and the model of the last', async () => {
      const store = newStore();
      await store.create({ id: 's1', model: 'first-model' });
      await store.open('s1');
      await store.commit('s1', { usage: emptyUsage(), title: 'The first input' });
      await store.commit('s1', { usage: emptyUsage(), title: 'Another', model: 'second-model' });

      expect((await store.load('s1')).info).toMatchObject({ title: 'The first input', model: 'second-model' });
    });

    it('keeps the pending question of the last turn only', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.open('s1');
      const question = { question: 'Install fastify?', suggestions: ['Yes', 'No'] };
      await store.commit('s1', { usage: emptyUsage(), exit: 'ask_question', pendingQuestion: question });
      expect((await store.load('s1')).pendingQuestion).toStrictEqual(question);

      await store.commit('s1', { usage: emptyUsage(), exit: 'task_completion' });
      expect((await store.load('s1')).pendingQuestion).toBeUndefined();
    });

    it('shows nothing of a turn before its commit', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.open('s1');
      await writeTurn(store, 's1', turnMessages(1));
      await store.append('s1', userMessage('not committed'));

      expect((await newStore().load('s1')).messages).toStrictEqual(turnMessages(1));
    });

    it('drops an unfinished turn at release, and a new writer goes on from the last commit', async () => {
      const first = newStore();
      await first.create({ id: 's1' });
      await first.open('s1');
      await writeTurn(first, 's1', turnMessages(1));
      await first.append('s1', userMessage('lost'));
      await first.release('s1');

      const second = newStore();
      expect((await second.open('s1')).messages).toStrictEqual(turnMessages(1));
      await writeTurn(second, 's1', turnMessages(2));
      expect((await second.load('s1')).messages).toStrictEqual([...turnMessages(1), ...turnMessages(2)]);
    });

    it('replaces the conversation from a replace on, followed by what the turn appends after it', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.open('s1');
      await writeTurn(store, 's1', turnMessages(1));
      const summary = userMessage('Summary of the work so far.');
      await store.replace('s1', [summary]);
      await writeTurn(store, 's1', turnMessages(2));

      const loaded = await newStore().load('s1');
      expect(loaded.messages).toStrictEqual([summary, ...turnMessages(2)]);
      expect(loaded.info.messageCount).toBe(5);
    });

    it('needs the session open to write it', async () => {
      const store = newStore();
      await store.create({ id: 's1' });

      expect(await rejectionOf(store.append('s1', userMessage('hi')))).toMatchObject({ code: 'session_not_open' });
      expect(await rejectionOf(store.commit('s1', { usage: emptyUsage() }))).toMatchObject({
        code: 'session_not_open',
        message: expect.stringContaining('Call store.open("s1") first.'),
      });
    });

    it('refuses a turn without a valid usage, saving nothing of it', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.open('s1');
      const error = await rejectionOf(store.commit('s1', { usage: { inputTokens: 1 } as never }));

      expect(error).toMatchObject({ code: 'invalid_session', message: expect.stringContaining('no valid usage') });
      expect((await store.load('s1')).info.turnCount).toBe(0);
    });

    it('fails the turn of a message JSON cannot hold, drops it, and saves the next turn', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.open('s1');
      const looped: { self?: unknown } = {};
      looped.self = looped;
      const bad: Message = {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', arguments: looped as Record<string, unknown> }],
      };
      await store.append('s1', userMessage('first')).catch(() => {});
      const appended = await rejectionOf(store.append('s1', bad));
      expect(appended).toMatchObject({ code: 'invalid_session', message: expect.stringContaining('cannot be saved') });
      await store.commit('s1', { usage: emptyUsage() }).catch(() => {});
      await store.open('s1');
      await writeTurn(store, 's1', turnMessages(2));

      expect((await store.load('s1')).messages).toStrictEqual(turnMessages(2));
    });
  });

  describe('the write lock', () => {
    it('lets one writer at a time open a session, saying who holds it', async () => {
      const first = newStore();
      await first.create({ id: 's1' });
      await first.open('s1');

      const error = await rejectionOf(newStore().open('s1'));
      expect(error).toBeInstanceOf(SessionStoreError);
      expect(error).toMatchObject({
        code: 'session_locked',
        sessionId: 's1',
        message: expect.stringContaining(`Session s1 is open in process ${process.pid}`),
      });
      // What a user of the command line can do: it has no fork command, and a local holder needs no unlocking.
      expect((error as Error).message).toMatch(
        /which is still writing it\. Close that agentloop \(or wait for it to end\) and try again, or start a new session\.$/,
      );
    });

    it('lets another writer open the session once it is released, or its store closed', async () => {
      const first = newStore();
      await first.create({ id: 's1' });
      await first.create({ id: 's2' });
      await first.open('s1');
      await first.open('s2');
      await first.release('s1');
      await first.close();

      const second = newStore();
      await expect(second.open('s1')).resolves.toMatchObject({ messages: [] });
      await expect(second.open('s2')).resolves.toMatchObject({ messages: [] });
    });

    it('lets readers load and list a session while it is open', async () => {
      const writer = newStore();
      await writer.create({ id: 's1' });
      await writer.open('s1');
      await writeTurn(writer, 's1', turnMessages(1));

      const reader = newStore();
      expect((await reader.load('s1')).messages).toHaveLength(4);
      expect((await reader.list()).map((info) => info.id)).toEqual(['s1']);
    });
  });

  describe('list', () => {
    it('lists the sessions most recently updated first, with their figures', async () => {
      const store = newStore();
      for (const id of ['a', 'b', 'c']) await store.create({ id, workspace: '/work/app' });
      await store.open('a');
      await new Promise((resolve) => setTimeout(resolve, 5));
      await writeTurn(store, 'a', turnMessages(1), usage(10, 5));

      const infos = await newStore().list();
      expect(infos[0]).toMatchObject({ id: 'a', messageCount: 4, turnCount: 1, tokenCount: 15 });
      expect(infos.map((info) => info.id).sort()).toEqual(['a', 'b', 'c']);
      expect(infos[0]!.updatedAt.getTime()).toBeGreaterThan(infos[0]!.createdAt.getTime());
    });

    it('lists only the sessions of a workspace, and at most `limit`', async () => {
      const store = newStore();
      await store.create({ id: 'here-1', workspace: '/work/here' });
      await store.create({ id: 'there', workspace: '/work/there' });
      await store.create({ id: 'here-2', workspace: '/work/here' });

      expect((await store.list({ workspace: '/work/here' })).map((info) => info.id).sort()).toEqual([
        'here-1',
        'here-2',
      ]);
      expect(await store.list({ limit: 2 })).toHaveLength(2);
      expect(await store.list({ workspace: '/nowhere' })).toEqual([]);
    });

    it('lists nothing before the first session', async () => {
      expect(await newStore().list()).toEqual([]);
    });
  });

  describe('delete', () => {
    it('deletes a session', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.create({ id: 's2' });
      await store.delete('s1');

      expect((await store.list()).map((info) => info.id)).toEqual(['s2']);
      expect(await rejectionOf(store.load('s1'))).toMatchObject({ code: 'session_not_found' });
      expect(await rejectionOf(store.delete('s1'))).toMatchObject({ code: 'session_not_found' });
    });

    it('refuses to delete a session another writer has open', async () => {
      const writer = newStore();
      await writer.create({ id: 's1' });
      await writer.open('s1');

      expect(await rejectionOf(newStore().delete('s1'))).toMatchObject({ code: 'session_locked' });
      expect((await writer.load('s1')).info.id).toBe('s1');
    });

    it('deletes a session it has open itself', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.open('s1');
      await store.delete('s1');

      expect(await store.list()).toEqual([]);
    });
  });

  describe('fork', () => {
    it('copies the first messages into a new session that remembers its origin', async () => {
      const store = newStore();
      await store.create({ id: 's1', title: 'Weather', workspace: '/work/app' });
      await store.open('s1');
      await writeTurn(store, 's1', turnMessages(1), usage(10, 5));
      await writeTurn(store, 's1', turnMessages(2), usage(10, 5));

      const fork = await store.fork('s1', { keepMessages: 4, id: 'f1' });
      expect(fork).toMatchObject({
        id: 'f1',
        title: 'Weather',
        workspace: '/work/app',
        messageCount: 4,
        forkedFrom: { sessionId: 's1', messageCount: 4 },
      });
      expect((await store.load('f1')).messages).toStrictEqual(turnMessages(1));
      expect((await store.load('s1')).messages).toHaveLength(8);

      // The fork is a session like any other: it can be opened and written.
      await store.open('f1');
      await writeTurn(store, 'f1', turnMessages(3));
      expect((await newStore().load('f1')).messages).toStrictEqual([...turnMessages(1), ...turnMessages(3)]);
    });

    it('keeps everything by default', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.open('s1');
      await writeTurn(store, 's1', turnMessages(1));

      const fork = await store.fork('s1');
      expect((await store.load(fork.id)).messages).toStrictEqual(turnMessages(1));
    });

    it('refuses a cut between a tool call and its result', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.open('s1');
      await writeTurn(store, 's1', turnMessages(1));

      expect(await rejectionOf(store.fork('s1', { keepMessages: 2 }))).toMatchObject({
        code: 'invalid_fork_point',
        message: expect.stringContaining('tool call "call-1" (weather) has no result'),
      });
      expect(await rejectionOf(store.fork('s1', { keepMessages: 9 }))).toMatchObject({
        code: 'invalid_fork_point',
        message: expect.stringContaining('it holds 4'),
      });
      expect((await store.list()).map((info) => info.id)).toEqual(['s1']);
    });

    it('refuses an id that is taken', async () => {
      const store = newStore();
      await store.create({ id: 's1' });
      await store.create({ id: 's2' });

      expect(await rejectionOf(store.fork('s1', { id: 's2' }))).toMatchObject({ code: 'session_exists' });
    });
  });

  it('refuses to work once closed', async () => {
    const store = newStore();
    await store.close();

    expect(await rejectionOf(store.create())).toMatchObject({ code: 'session_store_closed' });
    expect(await rejectionOf(store.list())).toMatchObject({ code: 'session_store_closed' });
  });

  it('keeps a tool step exactly: thinking signatures, arguments, metadata, error flags', async () => {
    const store = newStore();
    await store.create({ id: 's1' });
    await store.open('s1');
    const [call, result] = toolStep('c1', 'Lima');
    const failed = { ...result, content: [{ ...result.content[0]!, isError: true }] };
    await writeTurn(store, 's1', [userMessage('Lima?'), call, failed]);

    expect((await newStore().load('s1')).messages).toStrictEqual([userMessage('Lima?'), call, failed]);
  });

  it("keeps a tool result's images", async () => {
    const store = newStore();
    await store.create({ id: 's1' });
    await store.open('s1');
    const [call, result] = toolStep('c1', 'Lima');
    const images = [{ mediaType: 'image/png', data: Buffer.alloc(2000).toString('base64') }];
    const withImages = { ...result, content: [{ ...result.content[0]!, images }] };
    await writeTurn(store, 's1', [userMessage('Lima?'), call, withImages]);

    expect((await newStore().load('s1')).messages).toStrictEqual([userMessage('Lima?'), call, withImages]);
  });
});

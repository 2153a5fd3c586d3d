// session/list: the store's sessions for an editor's session picker, newest first, by directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionInfo, SessionStore } from '@agentloop/core';
import { JsonlSessionStore } from '@agentloop/sessions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { complete, scriptedExecutor } from '../test-support/scripted-executor.js';
import { createTempProject, type TempProject } from '../test-support/temp-project.js';
import { TestEditor } from '../test-support/test-editor.js';
import { listSessions, SESSION_LIST_PAGE_SIZE } from './list-sessions.js';

let project: TempProject;
let other: TempProject;
let storeDirectory: string;
const closers: (() => Promise<void>)[] = [];
beforeEach(() => {
  project = createTempProject();
  other = createTempProject();
  storeDirectory = mkdtempSync(join(tmpdir(), 'agentloop-acp-list-'));
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  project.remove();
  other.remove();
  rmSync(storeDirectory, { recursive: true, force: true });
});

async function editorWithStore(scripts: Parameters<typeof scriptedExecutor>[0]) {
  const store = new JsonlSessionStore({ directory: storeDirectory });
  closers.push(() => store.close());
  const { executor } = scriptedExecutor(scripts, { sessionStore: store, defaultMode: 'yolo' }, { store });
  const editor = await TestEditor.connect(executor);
  closers.push(async () => {
    await editor.close();
    editor.check.assertValid();
  });
  return editor;
}

/** A store that lists the given sessions and does nothing else. */
function listingStore(sessions: SessionInfo[]): SessionStore {
  return { list: async () => sessions } as unknown as SessionStore;
}

function info(id: string, workspace: string | undefined, updatedAt: number): SessionInfo {
  const at = new Date(updatedAt);
  return {
    id,
    title: `task ${id}`,
    model: undefined,
    workspace,
    createdAt: at,
    updatedAt: at,
    turnCount: 1,
    messageCount: 2,
    tokenCount: 0,
  };
}

describe('session/list', () => {
  it("lists the saved sessions of the editor's directory, newest first, and all of them without one", async () => {
    const editor = await editorWithStore([[complete('One.')], [complete('Two.')], [complete('Elsewhere.')]]);
    const answer = await editor.agent.request('initialize', { protocolVersion: 1 });
    expect(answer.agentCapabilities?.sessionCapabilities?.list).toEqual({});
    const first = await editor.newSession(project.dir);
    await editor.prompt(first, 'First task');
    const second = await editor.newSession(project.dir);
    await editor.prompt(second, 'Second task');
    const elsewhere = await editor.newSession(other.dir);
    await editor.prompt(elsewhere, 'Other task');

    const here = await editor.agent.request('session/list', { cwd: project.dir });
    expect(here.sessions.map((session) => session.sessionId)).toEqual([second, first]);
    expect(here.sessions[0]).toMatchObject({ cwd: project.dir, title: 'Second task', updatedAt: expect.any(String) });
    expect(here.nextCursor ?? undefined).toBeUndefined();

    const all = await editor.agent.request('session/list', {});
    expect(all.sessions.map((session) => session.sessionId).sort()).toEqual([first, second, elsewhere].sort());
  });

  it('has no session/list without a store, and does not advertise it', async () => {
    const { executor } = scriptedExecutor([]);
    const editor = await TestEditor.connect(executor);
    closers.push(() => editor.close());
    const answer = await editor.agent.request('initialize', { protocolVersion: 1 });
    expect(answer.agentCapabilities?.sessionCapabilities?.list ?? undefined).toBeUndefined();
    await expect(editor.agent.request('session/list', {})).rejects.toMatchObject({ code: -32601 });
  });

  it('pages a long list with nextCursor, newest first, and leaves out sessions saved without a directory', async () => {
    const count = SESSION_LIST_PAGE_SIZE + 3;
    const sessions = Array.from({ length: count }, (_, index) => info(`s${index}`, '/work/app', 1_000 + index));
    sessions.push(info('nowhere', undefined, 5_000));
    const store = listingStore(sessions);
    const firstPage = await listSessions(store, {});
    expect(firstPage.sessions).toHaveLength(SESSION_LIST_PAGE_SIZE);
    expect(firstPage.sessions[0]?.sessionId).toBe(`s${count - 1}`);
    expect(firstPage.nextCursor).toBe(String(SESSION_LIST_PAGE_SIZE));
    const secondPage = await listSessions(store, { cursor: firstPage.nextCursor ?? null });
    expect(secondPage.sessions.map((session) => session.sessionId)).toEqual(['s2', 's1', 's0']);
    expect(secondPage.nextCursor).toBeUndefined();
  });

  it('refuses a relative cwd and a cursor it did not send, saying what to send', async () => {
    const store = listingStore([info('a', '/work/app', 1)]);
    await expect(listSessions(store, { cwd: 'app' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid params'),
    });
    await expect(listSessions(store, { cursor: 'page-two' })).rejects.toMatchObject({ code: -32602 });
  });
});

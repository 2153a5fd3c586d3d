// session/load: a session a store keeps is resumed in another connection (another process, as after an
// editor restart), its conversation replayed to the editor before the answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '@agentloop/core';
import { JsonlSessionStore } from '@agentloop/sessions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { complete, scriptedExecutor } from '../test-support/scripted-executor.js';
import { createTempProject, type TempProject } from '../test-support/temp-project.js';
import { TestEditor } from '../test-support/test-editor.js';

let project: TempProject;
let storeDirectory: string;
let stores: SessionStore[] = [];
let editors: TestEditor[] = [];
beforeEach(() => {
  project = createTempProject();
  storeDirectory = mkdtempSync(join(tmpdir(), 'agentloop-acp-store-'));
});
afterEach(async () => {
  for (const editor of editors) {
    await editor.close();
    editor.check.assertValid();
  }
  for (const store of stores) await store.close();
  editors = [];
  stores = [];
  project.remove();
  rmSync(storeDirectory, { recursive: true, force: true });
});

/** An editor on an executor whose agents keep their sessions in a store of the test's folder. */
async function editorWithStore(scripts: Parameters<typeof scriptedExecutor>[0]) {
  const store = new JsonlSessionStore({ directory: storeDirectory });
  stores.push(store);
  const { executor, made } = scriptedExecutor(scripts, { sessionStore: store, defaultMode: 'yolo' }, { store });
  const editor = await TestEditor.connect(executor);
  editors.push(editor);
  return { editor, made };
}

describe('session/load', () => {
  it('resumes a stored session, replays it to the editor, and goes on with its history', async () => {
    const first = await editorWithStore([
      [
        {
          text: 'Writing it down.',
          toolCalls: [{ name: 'write_file', id: 'w1', arguments: { path: 'notes.txt', content: 'milk\n' } }],
        },
        complete('Noted: milk.'),
      ],
    ]);
    const sessionId = await first.editor.newSession(project.dir);
    await first.editor.prompt(sessionId, 'Note the milk.');
    await first.editor.close();
    editors = [];

    const second = await editorWithStore([[complete('You noted milk.')]]);
    const answer = await second.editor.agent.request('initialize', { protocolVersion: 1 });
    expect(answer.agentCapabilities?.loadSession).toBe(true);
    const loaded = await second.editor.agent.request('session/load', { sessionId, cwd: project.dir, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe('yolo');
    expect(second.made.setups[0]).toMatchObject({ sessionId, resume: true });
    const file = join(project.dir, 'notes.txt');
    // Every update of the replay came before the answer.
    expect(
      second.editor.updates(sessionId).filter((update) => update.sessionUpdate !== 'available_commands_update'),
    ).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Note the milk.' } },
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'Writing it down.' },
        messageId: expect.any(String),
      },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'w1',
        title: 'Write `notes.txt`',
        kind: 'edit',
        status: 'in_progress',
        locations: [{ path: file }],
        content: [{ type: 'diff', path: file, oldText: null, newText: 'milk\n' }],
        rawInput: { path: 'notes.txt', content: 'milk\n' },
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'w1',
        status: 'completed',
        rawOutput: 'Created "notes.txt" (1 line, 5 bytes).',
      },
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'Noted: milk.' },
        messageId: expect.any(String),
      },
    ]);
    expect(await second.editor.prompt(sessionId, 'What did I note?')).toMatchObject({ stopReason: 'end_turn' });
    expect(JSON.stringify(second.made.providers[0]!.request(0).messages)).toContain('Note the milk.');
  });

  it('answers an id the store does not have with -32002', async () => {
    const { editor } = await editorWithStore([]);
    await expect(
      editor.agent.request('session/load', { sessionId: 'sess_unknown', cwd: project.dir, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32002, data: { sessionId: 'sess_unknown' } });
  });

  it('has no session/load without a store, and says so in initialize', async () => {
    const { executor } = scriptedExecutor([]);
    const editor = await TestEditor.connect(executor);
    editors.push(editor);
    const answer = await editor.agent.request('initialize', { protocolVersion: 1 });
    expect(answer.agentCapabilities?.loadSession).toBe(false);
    await expect(
      editor.agent.request('session/load', { sessionId: 'sess_x', cwd: project.dir, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32601 });
  });
});

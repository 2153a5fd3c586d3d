// Approvals over the protocol: a call the approval mode asks about becomes session/request_permission,
// whose answer runs or refuses it; the editor's modes are the approval modes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestPermissionOutcome, RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import type { AcpExecutorOptions } from '../acp-executor.js';
import { useEditorTest } from '../test-support/editor-test.js';
import { complete, scriptedExecutor } from '../test-support/scripted-executor.js';

const fixture = useEditorTest();

const write = (path: string, content: string, id = `write-${path}`) => ({
  toolCalls: [{ name: 'write_file', id, arguments: { path, content } }],
});

async function connect(
  scripts: Parameters<typeof scriptedExecutor>[0],
  answer?: (
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ) => RequestPermissionOutcome | Promise<RequestPermissionOutcome>,
  options: AcpExecutorOptions = {},
) {
  const { executor, made } = scriptedExecutor(scripts, options);
  const editor = await fixture.connect(executor, answer ? { permission: answer } : {});
  const sessionId = await editor.newSession(fixture.project.dir);
  return { editor, made, sessionId };
}

const select = (optionId: string) => (): RequestPermissionOutcome => ({ outcome: 'selected', optionId });

describe('session/request_permission', () => {
  it('asks before a write in ask mode, showing the call and its diff, after the call was shown', async () => {
    const { editor, sessionId, made } = await connect([[write('notes.txt', 'milk\n', 'w1'), complete('Written.')]]);
    expect(await editor.prompt(sessionId, 'Note the milk.')).toMatchObject({ stopReason: 'end_turn' });
    const file = join(fixture.project.dir, 'notes.txt');
    expect(editor.permissions).toEqual([
      {
        sessionId,
        toolCall: {
          toolCallId: 'w1',
          title: 'Write `notes.txt`',
          kind: 'edit',
          status: 'pending',
          locations: [{ path: file }],
          content: [
            { type: 'content', content: { type: 'text', text: 'Needs approval: write_file can change things.' } },
            { type: 'diff', path: file, oldText: null, newText: 'milk\n' },
          ],
          rawInput: { path: 'notes.txt', content: 'milk\n' },
        },
        options: [
          { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'allow-session', name: 'Always allow write_file in this session', kind: 'allow_always' },
          { optionId: 'deny', name: 'Reject', kind: 'reject_once' },
        ],
      },
    ]);
    expect(readFileSync(file, 'utf8')).toBe('milk\n');
    // The editor saw the call before it was asked about it.
    const wire = editor.check.transcript.map((entry) => entry.message as { method?: string; params?: any });
    const shown = wire.findIndex((message) => message.params?.update?.toolCallId === 'w1');
    const asked = wire.findIndex((message) => message.method === 'session/request_permission');
    expect(shown).toBeGreaterThan(-1);
    expect(shown).toBeLessThan(asked);
    expect(editor.updates(sessionId)).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'w1', status: 'completed' }),
    );
    made.providers[0]!.assertComplete();
  });

  it('refuses the call when the user rejects it, and the model is told', async () => {
    const { editor, sessionId, made } = await connect(
      [[write('notes.txt', 'milk\n', 'w1'), complete('Not written.')]],
      select('deny'),
    );
    expect(await editor.prompt(sessionId, 'Note the milk.')).toMatchObject({ stopReason: 'end_turn' });
    expect(existsSync(join(fixture.project.dir, 'notes.txt'))).toBe(false);
    expect(editor.updates(sessionId)).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'w1', status: 'failed' }),
    );
    expect(JSON.stringify(made.providers[0]!.lastMessage(1))).toContain('the user declined this call');
  });

  it('asks no more about a tool the user allowed always, for the rest of the session', async () => {
    const { editor, sessionId } = await connect(
      [[write('a.txt', 'a'), complete('One.'), write('b.txt', 'b'), complete('Two.')]],
      select('allow-session'),
    );
    await editor.prompt(sessionId, 'Write a.');
    await editor.prompt(sessionId, 'Write b.');
    expect(editor.permissions).toHaveLength(1);
    expect(readFileSync(join(fixture.project.dir, 'b.txt'), 'utf8')).toBe('b');
  });

  it('allows always only the command the user saw, not every command', async () => {
    const run = (command: string, id: string) => ({ toolCalls: [{ name: 'run_command', id, arguments: { command } }] });
    const { editor, sessionId } = await connect(
      [[run('echo one', 'r1'), run('echo one two', 'r2'), run('echo three', 'r3'), complete('Done.')]],
      select('allow-session'),
    );
    await editor.prompt(sessionId, 'Echo.');
    expect(editor.permissions.map((request) => request.toolCall.toolCallId)).toEqual(['r1', 'r3']);
    expect(editor.permissions[0]?.options[1]).toEqual({
      optionId: 'allow-session',
      name: 'Always allow `echo one` in this session',
      kind: 'allow_always',
    });
  });

  it('applies the executor’s rules before the mode', async () => {
    const { editor, sessionId } = await connect([[write('a.txt', 'a'), complete('Refused.')]], undefined, {
      defaultMode: 'yolo',
      approvalRules: [{ tool: 'write_file', action: 'deny' }],
    });
    await editor.prompt(sessionId, 'Write a.');
    expect(editor.permissions).toEqual([]);
    expect(existsSync(join(fixture.project.dir, 'a.txt'))).toBe(false);
  });

  it('ends the turn as cancelled when it is cancelled while the user is asked, and withdraws the request', async () => {
    let withdrawn = false;
    const { editor, sessionId } = await connect(
      [[write('a.txt', 'a'), complete('after'), complete('Next.')]],
      (_request, signal) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            withdrawn = true;
            resolve({ outcome: 'cancelled' });
          }),
        ),
    );
    const turn = editor.prompt(sessionId, 'Write a.');
    while (editor.permissions.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await editor.agent.notify('session/cancel', { sessionId });
    expect(await turn).toMatchObject({ stopReason: 'cancelled' });
    expect(withdrawn).toBe(true);
    expect(existsSync(join(fixture.project.dir, 'a.txt'))).toBe(false);
    expect(editor.updates(sessionId)).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'write-a.txt', status: 'failed' }),
    );
  });
});

describe('modes', () => {
  it('switches to read-only with session/set_mode: a write is refused without asking', async () => {
    const { editor, sessionId } = await connect([[write('a.txt', 'a'), complete('Could not write.')]]);
    expect(await editor.agent.request('session/set_mode', { sessionId, modeId: 'read-only' })).toEqual({});
    await editor.prompt(sessionId, 'Write a.');
    expect(editor.permissions).toEqual([]);
    expect(existsSync(join(fixture.project.dir, 'a.txt'))).toBe(false);
    // Editors that show the config options see the change there.
    expect(editor.updates(sessionId)).toContainEqual({
      sessionUpdate: 'config_option_update',
      configOptions: [expect.objectContaining({ id: 'mode', currentValue: 'read-only' })],
    });
  });

  it('switches to full access with the mode config option: nothing is asked', async () => {
    const { editor, sessionId } = await connect([[write('a.txt', 'a'), complete('Written.')]]);
    const answer = await editor.agent.request('session/set_config_option', {
      sessionId,
      configId: 'mode',
      value: 'yolo',
    });
    expect(answer.configOptions).toEqual([expect.objectContaining({ id: 'mode', currentValue: 'yolo' })]);
    await editor.prompt(sessionId, 'Write a.');
    expect(editor.permissions).toEqual([]);
    expect(readFileSync(join(fixture.project.dir, 'a.txt'), 'utf8')).toBe('a');
    expect(editor.updates(sessionId)).toContainEqual({ sessionUpdate: 'current_mode_update', currentModeId: 'yolo' });
  });

  it('starts in the executor’s default mode', async () => {
    const { editor: connected } = await connect([], undefined, { defaultMode: 'auto' });
    const response = await connected.agent.request('session/new', { cwd: fixture.project.dir, mcpServers: [] });
    expect(response.modes?.currentModeId).toBe('auto');
  });

  it('refuses a mode it does not have, and keeps its mode', async () => {
    const { editor, sessionId } = await connect([[write('a.txt', 'a'), complete('Written.')]]);
    await expect(editor.agent.request('session/set_mode', { sessionId, modeId: 'architect' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('unknown mode "architect": use one of read-only, ask, auto, yolo'),
    });
    await editor.prompt(sessionId, 'Write a.');
    expect(editor.permissions).toHaveLength(1);
  });
});

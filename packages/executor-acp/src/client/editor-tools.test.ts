// The workspace tools through the editor: its buffers (fs/*) and its terminals (terminal/*), where it
// offers them in initialize.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEditorTest } from '../test-support/editor-test.js';
import { complete, scriptedExecutor } from '../test-support/scripted-executor.js';

const fixture = useEditorTest();

describe('the editor’s file system', () => {
  it('reads the editor’s buffer (unsaved changes) and writes through the editor', async () => {
    const file = fixture.project.write('notes.txt', 'saved on disk\n');
    const { executor, made } = scriptedExecutor(
      [
        [
          { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
          { toolCalls: [{ name: 'write_file', arguments: { path: 'todo.txt', content: 'buy milk\n' } }] },
          { toolCalls: [{ name: 'task_completion', arguments: { result: 'Done.' } }] },
        ],
      ],
      { defaultMode: 'yolo' },
    );
    const editor = await fixture.connect(executor, {
      capabilities: { fs: { readTextFile: true, writeTextFile: true } },
    });
    editor.buffers.set(file, 'unsaved in the editor\n');
    const sessionId = await editor.newSession(fixture.project.dir);
    expect(made.setups[0]!.fileSystem).toBeDefined();
    expect(await editor.prompt(sessionId, 'Read my notes, then write a todo.')).toMatchObject({
      stopReason: 'end_turn',
    });
    expect(JSON.stringify(made.providers[0]!.lastMessage(1))).toContain('unsaved in the editor');
    expect(editor.buffers.get(join(fixture.project.dir, 'todo.txt'))).toBe('buy milk\n');
    // The guard's check made the new file on disk; its text is the editor's to save.
    expect(readFileSync(join(fixture.project.dir, 'todo.txt'), 'utf8')).toBe('');
    const reads = editor.check.transcript.filter(
      (entry) => entry.from === 'agent' && 'method' in entry.message && entry.message.method === 'fs/read_text_file',
    );
    expect(reads.map((entry) => (entry.message as { params: unknown }).params)).toEqual([{ sessionId, path: file }]);
  });

  it('is not used when the editor offers only half of it', async () => {
    const { executor, made } = scriptedExecutor([[]]);
    const editor = await fixture.connect(executor, {
      capabilities: { fs: { readTextFile: true, writeTextFile: false } },
    });
    await editor.newSession(fixture.project.dir);
    expect(made.setups[0]!.fileSystem).toBeUndefined();
  });
});

describe.skipIf(process.platform === 'win32')('the editor’s terminals', () => {
  it('runs run_command in a terminal that the tool call shows, and gives the model its output', async () => {
    const { executor, made } = scriptedExecutor(
      [
        [
          {
            toolCalls: [{ name: 'run_command', id: 'run-1', arguments: { command: 'echo from-the-terminal; exit 3' } }],
          },
          complete('Ran it.'),
        ],
      ],
      { defaultMode: 'yolo' },
    );
    const editor = await fixture.connect(executor, { capabilities: { terminal: true } });
    const sessionId = await editor.newSession(fixture.project.dir);
    expect(await editor.prompt(sessionId, 'Run it.')).toMatchObject({ stopReason: 'end_turn' });
    const [terminalId, terminal] = [...editor.terminals][0]!;
    expect(terminal.args).toEqual(['-c', 'echo from-the-terminal; exit 3']);
    expect(terminal.released).toBe(true);
    expect(editor.updates(sessionId)).toContainEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'run-1',
      content: [{ type: 'terminal', terminalId }],
    });
    // The result does not replace the terminal the call shows.
    expect(editor.updates(sessionId)).toContainEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'run-1',
      status: 'completed',
      rawOutput: expect.stringMatching(/^Exit code 3 \(\d+\.\d s\)\.\nfrom-the-terminal\n$/),
    });
    expect(JSON.stringify(made.providers[0]!.lastMessage(1))).toContain('from-the-terminal');
  });

  it('kills the command in its terminal when the turn is cancelled', async () => {
    const { executor } = scriptedExecutor(
      [[{ toolCalls: [{ name: 'run_command', id: 'run-1', arguments: { command: 'sleep 30' } }] }]],
      { defaultMode: 'yolo' },
    );
    const editor = await fixture.connect(executor, { capabilities: { terminal: true } });
    const sessionId = await editor.newSession(fixture.project.dir);
    const turn = editor.prompt(sessionId, 'Wait.');
    await editor.waitForUpdate(
      sessionId,
      (update) =>
        update.sessionUpdate === 'tool_call_update' && 'content' in update && update.content?.[0]?.type === 'terminal',
    );
    await editor.agent.notify('session/cancel', { sessionId });
    expect(await turn).toMatchObject({ stopReason: 'cancelled' });
    const [terminal] = editor.terminals.values();
    expect(await terminal!.exit).toEqual({ exitCode: null, signal: 'SIGKILL' });
    expect(terminal!.released).toBe(true);
  });
});

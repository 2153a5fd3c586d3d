// End-to-end tests of `agentloop acp`: the built command, spawned as an editor spawns it, driven by the
// Agent Client Protocol SDK's client side, with the scripted OpenAI-compatible server as the model. Every
// line the command writes on stdout is checked against the protocol's schemas (AcpProtocolCheck).
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AcpChild, type PermissionAnswer } from '../test-support/acp-child.js';
import { assertBuilt, CliWorkspace } from '../test-support/cli-fixture.js';
import type { ScriptEntry, ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';

let workspace: CliWorkspace | undefined;
let server: ScriptedOpenAIServer | undefined;
let agentloop: AcpChild | undefined;

async function start(script: ScriptEntry[], args: string[] = [], permission?: PermissionAnswer) {
  workspace = new CliWorkspace();
  server = await startScriptedOpenAIServer(script);
  agentloop = await AcpChild.start(
    workspace,
    ['--base-url', server.url, '--model', 'test-model', ...args],
    permission ? { permission } : {},
  );
  await agentloop.initialize();
  return { agentloop, server, project: workspace.project };
}

const call = (name: string, args: unknown, id?: string) => ({
  toolCalls: [{ name, arguments: args, ...(id ? { id } : {}) }],
});

/** The last user message of a request body: which prompt the model is answering. */
const lastUserText = (body: { messages: { role: string; content: unknown }[] }) =>
  JSON.stringify(body.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '');

/** The processes working in `directory` (Linux: /proc). */
function processesIn(directory: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(directory)) found.push(Number(entry));
    } catch {
      // Gone, or not ours.
    }
  }
  return found;
}

describe('agentloop acp', () => {
  beforeAll(() => assertBuilt());

  afterEach(async () => {
    agentloop?.kill();
    await server?.close();
    const invalid = agentloop?.check.problems ?? [];
    workspace?.remove();
    agentloop = undefined;
    server = undefined;
    workspace = undefined;
    // Every message the command sent must be valid, in every test.
    expect(invalid).toEqual([]);
  });

  it('initializes, opens a session in the editor’s directory, and offers modes, models and commands', async () => {
    workspace = new CliWorkspace();
    server = await startScriptedOpenAIServer([]);
    agentloop = await AcpChild.start(workspace, [
      '--base-url',
      server.url,
      '--model',
      'test-model',
      '--approval',
      'ask',
    ]);
    const answer = await agentloop.initialize();
    expect(answer).toMatchObject({
      protocolVersion: 1,
      agentInfo: { name: 'agentloop' },
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
      },
    });
    const session = await agentloop.connection.agent.request('session/new', { cwd: workspace.project, mcpServers: [] });
    expect(session.modes?.currentModeId).toBe('ask');
    expect(session.configOptions).toEqual([
      expect.objectContaining({ id: 'mode', currentValue: 'ask' }),
      expect.objectContaining({ id: 'model', category: 'model', currentValue: 'openai:test-model' }),
    ]);
    await agentloop.waitForUpdate(session.sessionId, (update) => update.sessionUpdate === 'available_commands_update');
  });

  it('runs a prompt with a tool call that asks for permission, and streams it', async () => {
    const { agentloop, server, project } = await start(
      [
        {
          text: 'Editing.',
          ...call('edit_file', { path: 'notes.txt', old_text: 'milk', new_text: 'oat milk' }, 'edit-1'),
        },
        call('task_completion', { result: 'Changed milk to oat milk.', artifacts: ['notes.txt'] }),
      ],
      ['--approval', 'ask'],
    );
    const sessionId = await agentloop.newSession(project);
    expect(await agentloop.prompt(sessionId, 'Make it oat milk.')).toMatchObject({ stopReason: 'end_turn' });
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('Remember the oat milk.\n');
    expect(agentloop.permissions).toHaveLength(1);
    expect(agentloop.permissions[0]).toMatchObject({
      sessionId,
      toolCall: {
        toolCallId: 'edit-1',
        title: 'Edit `notes.txt`',
        kind: 'edit',
        content: [
          { type: 'content', content: { type: 'text', text: expect.stringContaining('Needs approval') } },
          { type: 'diff', path: join(project, 'notes.txt'), oldText: 'milk', newText: 'oat milk' },
        ],
      },
      options: [
        { optionId: 'allow-once', kind: 'allow_once' },
        { optionId: 'allow-session', kind: 'allow_always' },
        { optionId: 'deny', kind: 'reject_once' },
      ],
    });
    const updates = agentloop.updates(sessionId).map((update) => update.sessionUpdate);
    expect(updates).toEqual(
      expect.arrayContaining(['agent_message_chunk', 'tool_call', 'tool_call_update', 'available_commands_update']),
    );
    expect(agentloop.updates(sessionId)).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'completed' }),
    );
    expect(agentloop.messageText(sessionId)).toBe('Editing.Changed milk to oat milk.\n\nArtifacts:\n- notes.txt');
    expect(server.remaining).toBe(0);
    if (process.env.ACP_TRANSCRIPT) {
      writeFileSync(
        process.env.ACP_TRANSCRIPT,
        agentloop.check.transcript.map((entry) => `${entry.from}: ${JSON.stringify(entry.message)}`).join('\n'),
      );
    }
  });

  it('cancels a turn in the middle of the model’s stream, and goes on after it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { agentloop, project } = await start([
      { text: 'Thinking about it for a long while...', chunkSize: 4, hold: { afterChars: 8, until: held } },
      call('converse', { message: 'Back again.' }),
    ]);
    try {
      const sessionId = await agentloop.newSession(project);
      const turn = agentloop.prompt(sessionId, 'Think long.');
      await agentloop.waitForUpdate(sessionId, (update) => update.sessionUpdate === 'agent_message_chunk');
      await agentloop.connection.agent.notify('session/cancel', { sessionId });
      expect(await turn).toMatchObject({ stopReason: 'cancelled' });
      expect(agentloop.messageText(sessionId)).toBe('Thinking');
      expect(await agentloop.prompt(sessionId, 'Hello?')).toMatchObject({ stopReason: 'end_turn' });
      expect(agentloop.messageText(sessionId)).toBe('ThinkingBack again.');
    } finally {
      release();
    }
  });

  it('ends an ask_question turn with the question, and takes the next prompt as its answer', async () => {
    const { agentloop, server, project } = await start([
      call('ask_question', { question: 'Which milk?', suggestions: ['oat', 'soy'] }),
      call('task_completion', { result: 'Oat it is.' }),
    ]);
    const sessionId = await agentloop.newSession(project);
    expect(await agentloop.prompt(sessionId, 'Buy milk.')).toMatchObject({ stopReason: 'end_turn' });
    expect(agentloop.messageText(sessionId)).toBe('Which milk?\n\n1. oat\n2. soy');
    expect(await agentloop.prompt(sessionId, 'oat')).toMatchObject({ stopReason: 'end_turn' });
    expect(lastUserText(server.requests[1])).toContain('oat');
    expect(agentloop.messageText(sessionId)).toBe('Which milk?\n\n1. oat\n2. soyOat it is.');
  });

  it('runs two sessions at once, each with its own agent', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // One server answers both sessions: by the prompt it is given.
    const reply: ScriptEntry = (body) =>
      lastUserText(body).includes('first')
        ? { text: 'first answer', hold: { afterChars: 5, until: held }, ...call('converse', { message: '(one)' }) }
        : { ...call('converse', { message: 'second answer' }) };
    const { agentloop, server, project } = await start([reply, reply]);
    try {
      const one = await agentloop.newSession(project);
      const two = await agentloop.newSession(project);
      const first = agentloop.prompt(one, 'the first prompt');
      await agentloop.waitForUpdate(one, (update) => update.sessionUpdate === 'agent_message_chunk');
      // The second session's whole turn runs while the first one's model call is held.
      expect(await agentloop.prompt(two, 'the second prompt')).toMatchObject({ stopReason: 'end_turn' });
      release();
      expect(await first).toMatchObject({ stopReason: 'end_turn' });
      expect(agentloop.messageText(one)).toBe('first answer\n\n(one)');
      expect(agentloop.messageText(two)).toBe('second answer');
      expect(server.requests.map((body) => lastUserText(body).includes('second'))).toEqual([false, true]);
    } finally {
      release();
    }
  });

  it('reads and writes through the editor’s buffers where it offers them', async () => {
    workspace = new CliWorkspace();
    server = await startScriptedOpenAIServer([
      call('read_file', { path: 'notes.txt' }),
      call('write_file', { path: 'todo.txt', content: 'oat milk\n' }),
      call('task_completion', { result: 'Noted.' }),
    ]);
    agentloop = await AcpChild.start(workspace, [
      '--base-url',
      server.url,
      '--model',
      'test-model',
      '--approval',
      'yolo',
    ]);
    await agentloop.initialize(true);
    const notes = join(workspace.project, 'notes.txt');
    agentloop.buffers.set(notes, 'Remember the milk, unsaved.\n');
    const sessionId = await agentloop.newSession(workspace.project);
    expect(await agentloop.prompt(sessionId, 'Read my notes.')).toMatchObject({ stopReason: 'end_turn' });
    expect(JSON.stringify(server.requests[1].messages)).toContain('Remember the milk, unsaved.');
    expect(agentloop.buffers.get(join(workspace.project, 'todo.txt'))).toBe('oat milk\n');
  });

  it('answers malformed input, an unknown method and an unknown session with errors, and lives on', async () => {
    const { agentloop, project } = await start([call('converse', { message: 'Still here.' })]);
    agentloop.writeRaw('this is not JSON');
    agentloop.writeRaw('{"jsonrpc":"2.0","id":901,"method":"session/teleport","params":{}}');
    agentloop.writeRaw(
      '{"jsonrpc":"2.0","id":902,"method":"session/prompt","params":{"sessionId":"sess_nobody","prompt":[]}}',
    );
    agentloop.writeRaw('{"jsonrpc":"2.0","id":903,"method":"session/new","params":{"cwd":42}}');
    expect(await agentloop.answerTo(901)).toMatchObject({ error: { code: -32601 } });
    expect(await agentloop.answerTo(902)).toMatchObject({
      error: { code: -32002, data: { sessionId: 'sess_nobody' } },
    });
    expect(await agentloop.answerTo(903)).toMatchObject({ error: { code: -32602 } });
    expect(agentloop.check.transcript).toContainEqual({
      from: 'agent',
      message: expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) }),
    });
    const sessionId = await agentloop.newSession(project);
    expect(await agentloop.prompt(sessionId, 'Are you there?')).toMatchObject({ stopReason: 'end_turn' });
    expect(agentloop.messageText(sessionId)).toBe('Still here.');
  });

  it.skipIf(process.platform !== 'linux')(
    'exits cleanly when the editor closes stdin, with nothing left running',
    async () => {
      const { agentloop, project } = await start(
        [call('run_command', { command: 'sleep 60' }, 'sleep-1')],
        ['--approval', 'yolo', '--sandbox', 'off'],
      );
      const sessionId = await agentloop.newSession(project);
      const turn = agentloop.prompt(sessionId, 'Wait a minute.').catch((error: unknown) => error);
      await agentloop.waitForUpdate(
        sessionId,
        (update) => update.sessionUpdate === 'tool_call_update' && update.status === 'in_progress',
      );
      // The command runs, in the project.
      for (let attempt = 0; attempt < 100 && processesIn(project).length === 0; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(processesIn(project).length).toBeGreaterThan(0);
      expect(await agentloop.end()).toEqual({ code: 0, signal: null });
      expect(processesIn(project)).toEqual([]);
      expect(await turn).toBeInstanceOf(Error);
      expect(existsSync(project)).toBe(true);
    },
  );
});

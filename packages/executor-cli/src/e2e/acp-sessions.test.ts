// End-to-end tests of saved sessions over ACP: `agentloop acp`, spawned as an editor spawns it and driven
// by the SDK's client side, keeps each session in the command's store (under the workspace's HOME, never
// the user's); a second `agentloop acp`, as after an editor restart, loads one with `session/load`, replays
// it to the editor, and the next prompt goes on with its history. Every message is schema-checked.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AcpChild } from '../test-support/acp-child.js';
import { assertBuilt, CliWorkspace } from '../test-support/cli-fixture.js';
import { runAgentloop } from '../test-support/run-agentloop.js';
import type { ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';

let workspace: CliWorkspace | undefined;
let server: ScriptedOpenAIServer | undefined;
const children: AcpChild[] = [];

/** Starts `agentloop acp` in the test's workspace, against its server, and initializes it. */
async function startAcp() {
  const child = await AcpChild.start(workspace!, [
    '--base-url',
    server!.url,
    '--model',
    'test-model',
    '--approval',
    'yolo',
  ]);
  children.push(child);
  return { child, answer: await child.initialize() };
}

const call = (name: string, args: unknown, id?: string) => ({
  toolCalls: [{ name, arguments: args, ...(id ? { id } : {}) }],
});

/** The texts of the user messages of a request the server got. */
function userTexts(body: { messages: { role: string; content: unknown }[] }): string[] {
  return body.messages
    .filter((message) => message.role === 'user')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)));
}

const withoutCommands = (updates: SessionUpdate[]) =>
  updates.filter((update) => update.sessionUpdate !== 'available_commands_update');

describe('agentloop acp: saved sessions', () => {
  beforeAll(() => assertBuilt());

  afterEach(async () => {
    const invalid = children.flatMap((child) => child.check.problems);
    for (const child of children.splice(0)) child.kill();
    await server?.close();
    workspace?.remove();
    server = undefined;
    workspace = undefined;
    // Every message either command sent must be valid, in every test.
    expect(invalid).toEqual([]);
  });

  it('saves a session, and a new process loads it, replays it to the editor, and goes on with its history', async () => {
    workspace = new CliWorkspace();
    server = await startScriptedOpenAIServer([
      { text: 'Writing it down.', ...call('write_file', { path: 'todo.txt', content: 'oat milk\n' }, 'write-1') },
      call('task_completion', { result: 'Noted: oat milk.' }),
      call('converse', { message: 'You asked me to note oat milk.' }),
    ]);

    const first = await startAcp();
    expect(first.answer.agentCapabilities?.loadSession).toBe(true);
    const sessionId = await first.child.newSession(workspace.project);
    expect(await first.child.prompt(sessionId, 'Note the oat milk.')).toMatchObject({ stopReason: 'end_turn' });
    expect(await first.child.end()).toEqual({ code: 0, signal: null });
    // In the workspace's HOME: the user's own sessions are not touched.
    expect(existsSync(join(workspace.root, '.local', 'share', 'agentloop', 'sessions', 'sessions.sqlite'))).toBe(true);

    const second = await startAcp();
    expect(second.answer.agentCapabilities?.loadSession).toBe(true);
    const loaded = await second.child.connection.agent.request('session/load', {
      sessionId,
      cwd: workspace.project,
      mcpServers: [],
    });
    expect(loaded.modes?.currentModeId).toBe('yolo');
    // The replay came before the answer: the editor shows the earlier exchange as it was.
    const todo = join(workspace.project, 'todo.txt');
    expect(withoutCommands(second.child.updates(sessionId))).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Note the oat milk.' } },
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'Writing it down.' },
        messageId: expect.any(String),
      },
      expect.objectContaining({
        sessionUpdate: 'tool_call',
        toolCallId: 'write-1',
        kind: 'edit',
        locations: [{ path: todo }],
      }),
      expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'write-1', status: 'completed' }),
      expect.objectContaining({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: expect.stringContaining('Noted: oat milk.') },
      }),
    ]);

    expect(await second.child.prompt(sessionId, 'What did I ask you?')).toMatchObject({ stopReason: 'end_turn' });
    expect(second.child.messageText(sessionId)).toContain('You asked me to note oat milk.');
    // The model got the earlier exchange with the new prompt: the first prompt, the tool call and its result.
    const resumed = server.requests[2]!;
    expect(userTexts(resumed)).toEqual([
      expect.stringContaining('Note the oat milk.'),
      expect.stringContaining('What did I ask you?'),
    ]);
    expect(JSON.stringify(resumed.messages)).toContain('write-1');
    expect(server.remaining).toBe(0);
    expect(await second.child.end()).toEqual({ code: 0, signal: null });

    // The terminal's store is the same one: `agentloop sessions` in the project lists the editor's session.
    const listed = await runAgentloop(workspace, ['sessions']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain(sessionId);
    expect(listed.stdout).toContain('Note the oat milk.');
  }, 60_000);

  it('answers session/load for an id the store does not have with -32002, and lives on', async () => {
    workspace = new CliWorkspace();
    server = await startScriptedOpenAIServer([call('converse', { message: 'Still here.' })]);
    const { child } = await startAcp();
    await expect(
      child.connection.agent.request('session/load', {
        sessionId: 'sess_never-saved',
        cwd: workspace.project,
        mcpServers: [],
      }),
    ).rejects.toMatchObject({ code: -32002 });
    const sessionId = await child.newSession(workspace.project);
    expect(await child.prompt(sessionId, 'Are you there?')).toMatchObject({ stopReason: 'end_turn' });
    expect(child.messageText(sessionId)).toBe('Still here.');
  });

  it('keeps nothing and offers no session/load when the configuration says [sessions] store = "off"', async () => {
    workspace = new CliWorkspace();
    // Added to what the workspace wrote (the sandbox switched off where it cannot run), and taken back below.
    const userConfig = existsSync(workspace.userConfigFile) ? readFileSync(workspace.userConfigFile, 'utf8') : '';
    workspace.appendUserConfig('\n[sessions]\nstore = "off"\n');
    server = await startScriptedOpenAIServer([call('converse', { message: 'Not kept.' })]);
    const { child, answer } = await startAcp();
    expect(answer.agentCapabilities?.loadSession).toBe(false);
    const sessionId = await child.newSession(workspace.project);
    expect(await child.prompt(sessionId, 'Forget this.')).toMatchObject({ stopReason: 'end_turn' });
    await expect(
      child.connection.agent.request('session/load', { sessionId, cwd: workspace.project, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32601 });
    expect(await child.end()).toEqual({ code: 0, signal: null });
    // Nothing was saved: with sessions on again, the store has no session of this directory.
    writeFileSync(workspace.userConfigFile, userConfig);
    const listed = await runAgentloop(workspace, ['sessions']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).not.toContain(sessionId);
  });
});

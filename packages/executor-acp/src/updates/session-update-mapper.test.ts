// The event → update mapping, on the events of a real agent run with a scripted model and the workspace
// tools: what an editor is shown of a run, checked against the protocol's own schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { createWorkspaceTools } from '@agentloop/workspace-tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../test-support/temp-project.js';
import { AcpProtocolCheck } from '../testing/index.js';
import { SessionUpdateMapper } from './session-update-mapper.js';

let project: TempProject;
beforeEach(() => {
  project = createTempProject();
});
afterEach(() => project.remove());

/** Runs a scripted agent and maps every event, as a session does. */
async function updatesOf(provider: ScriptedProvider, input = 'Fix the sum.'): Promise<SessionUpdate[]> {
  const agent = new DefaultAgent(provider, {
    workspace: project.dir,
    tools: createWorkspaceTools({ include: ['read_file', 'edit_file', 'list_files'] }),
  });
  let next = 0;
  const mapper = new SessionUpdateMapper({
    cwd: project.dir,
    annotations: (name) => agent.tools.get(name)?.tool.annotations,
    createId: () => `id-${++next}`,
  });
  const events: AgentEvent[] = [];
  agent.onAny((event) => events.push(event));
  await agent.run(input);
  provider.assertComplete();
  return events.flatMap((event) => mapper.map(event));
}

/** Every update must be one the protocol's schema accepts. */
async function expectValid(updates: SessionUpdate[]): Promise<void> {
  const check = await AcpProtocolCheck.create();
  for (const update of updates) {
    check.check({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess_1', update } });
  }
  check.assertValid();
}

describe('SessionUpdateMapper', () => {
  it('streams reasoning and text as thought and message chunks, each part with its own message id', async () => {
    const updates = await updatesOf(
      new ScriptedProvider(
        [
          {
            thinking: 'The user wants a greeting.',
            text: 'Hello there.',
            toolCalls: [{ name: 'converse', arguments: { message: 'Hi!' } }],
          },
        ],
        { chunkSize: 6 },
      ),
    );
    expect(updates.filter((update) => update.sessionUpdate === 'agent_thought_chunk')).toEqual([
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'The us' }, messageId: 'id-1' },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'er wan' }, messageId: 'id-1' },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'ts a g' }, messageId: 'id-1' },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'reetin' }, messageId: 'id-1' },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'g.' }, messageId: 'id-1' },
    ]);
    expect(updates.filter((update) => update.sessionUpdate === 'agent_message_chunk')).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello ' }, messageId: 'id-2' },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'there.' }, messageId: 'id-2' },
    ]);
    // converse is a loop-control call: its message ends the turn, it is no tool call of the editor's.
    expect(updates.some((update) => update.sessionUpdate === 'tool_call')).toBe(false);
    await expectValid(updates);
  });

  it('shows a read as a read of its file, and an edit as the diff it makes, then their results', async () => {
    project.write('src/sum.js', 'return a - b;\n');
    const updates = await updatesOf(
      new ScriptedProvider([
        { toolCalls: [{ name: 'read_file', id: 'read-1', arguments: { path: 'src/sum.js', start_line: 1 } }] },
        {
          toolCalls: [
            {
              name: 'edit_file',
              id: 'edit-1',
              arguments: { path: 'src/sum.js', old_text: 'a - b', new_text: 'a + b' },
            },
          ],
        },
        { toolCalls: [{ name: 'task_completion', arguments: { result: 'Fixed.' } }] },
      ]),
    );
    const file = join(project.dir, 'src/sum.js');
    expect(updates).toEqual([
      // Announced when the model starts the call, completed once its arguments are known.
      { sessionUpdate: 'tool_call', toolCallId: 'read-1', title: 'read_file', kind: 'read', status: 'pending' },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'read-1',
        title: 'Read `src/sum.js` (from line 1)',
        kind: 'read',
        status: 'in_progress',
        locations: [{ path: file, line: 1 }],
        content: [],
        rawInput: { path: 'src/sum.js', start_line: 1 },
      },
      // The file's text is the editor's own: a read shows no copy of it.
      { sessionUpdate: 'tool_call_update', toolCallId: 'read-1', status: 'completed' },
      { sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'edit_file', kind: 'edit', status: 'pending' },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'edit-1',
        title: 'Edit `src/sum.js`',
        kind: 'edit',
        status: 'in_progress',
        locations: [{ path: file }],
        content: [{ type: 'diff', path: file, oldText: 'a - b', newText: 'a + b' }],
        rawInput: { path: 'src/sum.js', old_text: 'a - b', new_text: 'a + b' },
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'edit-1',
        status: 'completed',
        rawOutput:
          'Edited "src/sum.js": replaced 1 occurrence.\n--- src/sum.js\n+++ src/sum.js\n@@ -1,1 +1,1 @@\n-return a - b;\n+return a + b;\n',
      },
    ]);
    expect(readFileSync(file, 'utf8')).toBe('return a + b;\n');
    await expectValid(updates);
  });

  it('replaces a failed edit’s diff with the error the model was given', async () => {
    project.write('a.txt', 'one\n');
    const updates = await updatesOf(
      new ScriptedProvider([
        {
          toolCalls: [
            { name: 'edit_file', id: 'edit-1', arguments: { path: 'a.txt', old_text: 'two', new_text: '2' } },
          ],
        },
        { toolCalls: [{ name: 'converse', arguments: { message: 'It has no "two".' } }] },
      ]),
    );
    expect(updates.at(-1)).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'edit-1',
      status: 'failed',
      content: [
        {
          type: 'content',
          content: { type: 'text', text: expect.stringContaining('old_text was not found in "a.txt"') },
        },
      ],
      rawOutput: expect.stringContaining('[no_match]'),
    });
    await expectValid(updates);
  });

  it('shows other results fenced, so that listings keep their shape', async () => {
    project.write('a.txt', 'one\n');
    const updates = await updatesOf(
      new ScriptedProvider([
        { toolCalls: [{ name: 'list_files', id: 'list-1', arguments: {} }] },
        { toolCalls: [{ name: 'task_completion', arguments: { result: 'Listed.' } }] },
      ]),
    );
    expect(updates.at(-1)).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'list-1',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: expect.stringMatching(/^```\n.*a\.txt.*\n```$/s) } }],
      rawOutput: expect.stringContaining('a.txt'),
    });
    await expectValid(updates);
  });

  it('announces a call as soon as the model starts it, and completes it once its arguments are known', () => {
    const mapper = new SessionUpdateMapper({ cwd: '/project', createId: () => 'id' });
    expect(mapper.map({ type: 'tool-call-start', iteration: 1, toolCallId: 'c1', name: 'run_command' })).toEqual([
      { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'run_command', kind: 'execute', status: 'pending' },
    ]);
    expect(
      mapper.map({
        type: 'tool-call',
        iteration: 1,
        toolCallId: 'c1',
        name: 'run_command',
        arguments: { command: 'npm test' },
      }),
    ).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        title: 'Run `npm test`',
        kind: 'execute',
        status: 'in_progress',
        locations: [],
        content: [],
        rawInput: { command: 'npm test' },
      },
    ]);
    // A terminal shows the command: the result does not replace it.
    expect(mapper.terminal('c1', 'term-1')).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      content: [{ type: 'terminal', terminalId: 'term-1' }],
    });
    expect(
      mapper.map({
        type: 'tool-result',
        iteration: 1,
        toolCallId: 'c1',
        name: 'run_command',
        content: 'Exit code 0',
        value: 'Exit code 0',
        durationMs: 5,
      }),
    ).toEqual([{ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', rawOutput: 'Exit code 0' }]);
  });

  it('says that a retried answer starts again, and shows nothing of loop-control calls', () => {
    const mapper = new SessionUpdateMapper({ cwd: '/project', createId: () => 'id' });
    const error = new Error('socket hang up') as never;
    expect(mapper.map({ type: 'retry', iteration: 1, attempt: 1, delayMs: 10, error, discardOutput: true })).toEqual([
      mapper.messageChunk('\n\n(The connection to the model broke; its answer starts again.)\n\n', 'id'),
    ]);
    expect(mapper.map({ type: 'retry', iteration: 1, attempt: 1, delayMs: 10, error, discardOutput: false })).toEqual(
      [],
    );
    expect(mapper.map({ type: 'tool-call-start', iteration: 1, toolCallId: 'q', name: 'ask_question' })).toEqual([]);
    expect(
      mapper.map({
        type: 'tool-result',
        iteration: 1,
        toolCallId: 'q',
        name: 'ask_question',
        content: '',
        value: '',
        durationMs: 0,
      }),
    ).toEqual([]);
  });
});

// A sub-agent (an agent the session's agent calls as a tool) over the protocol: its tool calls are shown
// to the editor as calls of their own, named by the sub-agent, and its approval requests become
// session/request_permission on those calls, whose answer reaches the sub-agent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import { DefaultAgent, defineTool } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { createWorkspaceTools } from '@agentloop/workspace-tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useEditorTest } from '../test-support/editor-test.js';
import { complete, scriptedExecutor } from '../test-support/scripted-executor.js';

const fixture = useEditorTest();

const callWriter: ScriptStep = { toolCalls: [{ name: 'writer', id: 'c1', arguments: { task: 'Note the milk.' } }] };
const writeNotes: ScriptStep = {
  toolCalls: [{ name: 'write_file', id: 'w1', arguments: { path: 'notes.txt', content: 'milk\n' } }],
};

describe('a sub-agent in an editor session', () => {
  it("brings a sub-agent's tool's elicitation to the editor on the sub-agent's call", async () => {
    const answers: string[] = [];
    const form = defineTool({
      name: 'form',
      description: 'Asks for a city.',
      parameters: z.object({}),
      annotations: { readOnly: true },
      execute: async (_args, context) => {
        const answer = await context.elicit?.({
          mode: 'form',
          message: 'Which city?',
          schema: { type: 'object', properties: { city: { type: 'string' } } },
        });
        answers.push(JSON.stringify(answer));
        return 'asked';
      },
    });
    const askCity: ScriptStep = { toolCalls: [{ name: 'form', id: 'f1', arguments: {} }] };
    const { executor } = scriptedExecutor(
      [[callWriter, complete('The writer asked.')]],
      {},
      {
        extend: (agent) => {
          const writer = new DefaultAgent(new ScriptedProvider([askCity, complete('Asked.')], { chunkSize: 1000 }), {
            tools: [form],
          });
          agent.registerTool(writer.asTool({ name: 'writer', description: 'Writes notes.' }));
          return {};
        },
      },
    );
    const editor = await fixture.connect(executor, {
      capabilities: { elicitation: { form: {} } },
      elicit: () => ({ action: 'accept', content: { city: 'Oslo' } }),
    });
    const sessionId = await editor.newSession(fixture.project.dir);

    expect(await editor.prompt(sessionId, 'Ask for a city.')).toMatchObject({ stopReason: 'end_turn' });

    expect(
      editor.elicitations.map((request) => [request.message, (request as { toolCallId?: string }).toolCallId]),
    ).toEqual([['Which city?', 'c1/f1']]);
    expect(answers).toEqual([JSON.stringify({ action: 'accept', content: { city: 'Oslo' } })]);
  });

  it("shows the sub-agent's calls under its name and asks the editor about them on those calls", async () => {
    const { executor } = scriptedExecutor(
      [[callWriter, complete('The writer noted it.')]],
      {},
      {
        extend: (agent, setup) => {
          const writer = new DefaultAgent(new ScriptedProvider([writeNotes, complete('Noted.')], { chunkSize: 1000 }), {
            workspace: setup.cwd,
            approval: 'ask',
            tools: createWorkspaceTools({ fileSystem: setup.fileSystem, include: ['write_file'] }),
          });
          agent.registerTool(writer.asTool({ name: 'writer', description: 'Writes notes.' }));
          return {};
        },
      },
    );
    const editor = await fixture.connect(executor, {
      permission: (): RequestPermissionOutcome => ({ outcome: 'selected', optionId: 'allow-once' }),
    });
    const sessionId = await editor.newSession(fixture.project.dir);

    expect(await editor.prompt(sessionId, 'Note the milk.')).toMatchObject({ stopReason: 'end_turn' });

    expect(readFileSync(join(fixture.project.dir, 'notes.txt'), 'utf8')).toBe('milk\n');
    expect(editor.permissions).toHaveLength(1);
    expect(editor.permissions[0]?.toolCall).toMatchObject({
      toolCallId: 'c1/w1',
      content: [
        {
          type: 'content',
          content: { type: 'text', text: 'Needs approval: asked by the writer agent: write_file can change things.' },
        },
        expect.objectContaining({ type: 'diff' }),
      ],
    });
    const updates = editor.updates(sessionId);
    expect(updates).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call', toolCallId: 'c1/w1', title: 'writer › write_file' }),
    );
    expect(updates).toContainEqual(
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1/w1',
        title: 'writer › Write `notes.txt`',
        status: 'in_progress',
      }),
    );
    expect(updates).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'c1/w1', status: 'completed' }),
    );
    expect(updates).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' }),
    );
  });
});

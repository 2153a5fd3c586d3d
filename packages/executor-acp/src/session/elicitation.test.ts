// Tools' elicitations over the protocol: `elicitation/create` where the editor advertises the mode, else a
// permission request with accept and decline where that says it all, else declined.
import type { CreateElicitationResponse } from '@agentclientprotocol/sdk';
import { defineTool, type ElicitationRequest } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useEditorTest } from '../test-support/editor-test.js';
import { complete, scriptedExecutor } from '../test-support/scripted-executor.js';
import type { TestEditorOptions } from '../test-support/test-editor.js';

const fixture = useEditorTest();

const FORM: ElicitationRequest = {
  mode: 'form',
  server: 'tickets',
  message: 'Which project?',
  schema: {
    type: 'object',
    properties: { project: { type: 'string' }, priority: { type: 'integer', default: 3 } },
    required: ['project'],
  },
};
const CONFIRM: ElicitationRequest = {
  mode: 'form',
  message: 'Delete the draft?',
  schema: { type: 'object', properties: {} },
};
const PAGE: ElicitationRequest = {
  mode: 'url',
  server: 'tickets',
  message: 'Sign in',
  url: 'https://example.com/login',
};

/** A session whose model calls a tool that asks `request` and returns the answer as JSON. */
async function askThrough(request: ElicitationRequest, options: TestEditorOptions) {
  const answers: string[] = [];
  const ask = defineTool({
    name: 'ask',
    description: 'Asks the user.',
    parameters: z.object({}),
    annotations: { readOnly: true },
    execute: async (_args, context) => {
      const answer = JSON.stringify(await context.elicit?.(request));
      answers.push(answer);
      return answer;
    },
  });
  const { executor } = scriptedExecutor(
    [[{ toolCalls: [{ name: 'ask', id: 'ask-1', arguments: {} }] }, complete('Asked.')]],
    {},
    {
      extend: (agent) => {
        agent.registerTool(ask);
        return {};
      },
    },
  );
  const editor = await fixture.connect(executor, options);
  const sessionId = await editor.newSession(fixture.project.dir);
  expect(await editor.prompt(sessionId, 'Ask me.')).toMatchObject({ stopReason: 'end_turn' });
  return { editor, sessionId, answers: answers.map((answer) => JSON.parse(answer)) };
}

describe('elicitation over ACP', () => {
  it('sends elicitation/create to an editor that shows forms, tied to the tool call, and takes its answer', async () => {
    const { editor, sessionId, answers } = await askThrough(FORM, {
      capabilities: { elicitation: { form: {} } },
      elicit: (): CreateElicitationResponse => ({ action: 'accept', content: { project: 'web' } }),
    });
    expect(editor.elicitations).toEqual([
      {
        sessionId,
        toolCallId: 'ask-1',
        mode: 'form',
        message: 'Which project?',
        requestedSchema: FORM.mode === 'form' ? FORM.schema : undefined,
      },
    ]);
    expect(answers).toEqual([{ action: 'accept', content: { project: 'web', priority: 3 } }]);
    expect(editor.permissions).toEqual([]);
  });

  it('sends a URL request as elicitation/create in url mode where the editor shows those', async () => {
    const { editor, answers } = await askThrough(PAGE, {
      capabilities: { elicitation: { url: {} } },
      elicit: (): CreateElicitationResponse => ({ action: 'cancel' }),
    });
    expect(editor.elicitations.map((request) => [request.mode, (request as { url?: string }).url])).toEqual([
      ['url', 'https://example.com/login'],
    ]);
    expect(answers).toEqual([{ action: 'cancel' }]);
  });

  it('asks a page to open as a permission request of an editor without elicitation', async () => {
    const { editor, sessionId, answers } = await askThrough(PAGE, {
      permission: () => ({ outcome: 'selected', optionId: 'accept' }),
    });
    expect(editor.permissions).toEqual([
      {
        sessionId,
        toolCall: {
          toolCallId: 'ask-1',
          title: 'MCP server tickets asks you to open a page',
          status: 'pending',
          content: [{ type: 'content', content: { type: 'text', text: 'Sign in\n\nOpen: https://example.com/login' } }],
        },
        options: [
          { optionId: 'accept', name: 'Open the page', kind: 'allow_once' },
          { optionId: 'decline', name: 'Decline', kind: 'reject_once' },
        ],
      },
    ]);
    expect(answers).toEqual([{ action: 'accept', content: {} }]);
  });

  it('asks a form without fields as a permission request, and declines with its reject option', async () => {
    const { editor, answers } = await askThrough(CONFIRM, {
      permission: () => ({ outcome: 'selected', optionId: 'decline' }),
    });
    expect(editor.permissions.map((request) => request.toolCall.title)).toEqual(['ask asks for your confirmation']);
    expect(answers).toEqual([{ action: 'decline' }]);
  });

  it('declines a form with fields when the editor cannot show forms, asking nothing', async () => {
    const { editor, answers } = await askThrough(FORM, {});
    expect(editor.permissions).toEqual([]);
    expect(editor.elicitations).toEqual([]);
    expect(answers).toEqual([{ action: 'decline' }]);
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultAgent } from '@agentloop/core';
import type { Message, ToolDefinition } from '@agentloop/spec';
import { createApplyPatchTool } from '@agentloop/workspace-tools';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chunkFrames,
  chunksOfType,
  collectChunks,
  jsonResponse,
  modelRequest,
  readJsonFixture,
  responsesAnswer,
  sseResponse,
  testProviderOptions,
  useFixtureServer,
} from '../test-support/index.js';
import type { OpenAIProviderOptions } from './openai-provider-options.js';
import { OpenAIResponsesProvider } from './openai-responses-provider.js';

// The Responses API's own apply_patch tool: recorded gpt-5.1 traffic (src/__fixtures__/README.md) and, for
// an update, which no recording has, a stream in the same shape.
const server = useFixtureServer();

function provider(model: string, streaming = true, options: Partial<OpenAIProviderOptions> = {}) {
  return new OpenAIResponsesProvider({
    model,
    compatible: false,
    streaming,
    ...testProviderOptions(`${server().url}/v1`).options,
    ...options,
  });
}

/** The workspace tool's definition, as the loop sends it. */
const APPLY_PATCH_TOOL: ToolDefinition = {
  name: 'apply_patch',
  description: 'Change workspace files with a patch',
  inputSchema: { type: 'object', properties: { patch: { type: 'string' } }, required: ['patch'] },
};

const patchRequest = (messages?: Message[]) =>
  modelRequest({ tools: [APPLY_PATCH_TOOL], toolChoice: 'required', ...(messages ? { messages } : {}) });

const CHECKLIST_CALL = {
  type: 'tool-call',
  toolCallId: 'call_kA46f91ZwocQyMCKyyZqRyC5',
  toolName: 'apply_patch',
  input: JSON.stringify({
    patch:
      '*** Begin Patch\n*** Add File: shopping-checklist.md\n+## Shopping Checklist\n+\n+- [ ] Milk\n+- [ ] Bread\n+- [ ] Eggs\n+- [ ] Fresh fruit\n+- [ ] Coffee\n*** End Patch\n',
  }),
  providerMetadata: {
    openai: {
      itemId: 'apc_0372d86dfc1762fe00692741f3f3dc8190879cba489ff2fc8b',
      applyPatchOperation: {
        type: 'create_file',
        path: 'shopping-checklist.md',
        diff: '+## Shopping Checklist\n+\n+- [ ] Milk\n+- [ ] Bread\n+- [ ] Eggs\n+- [ ] Fresh fruit\n+- [ ] Coffee\n',
      },
    },
  },
};

const UPDATE = { type: 'update_file', path: 'src/app.ts', diff: '@@ function main() {\n-  old();\n+  fresh();\n' };
const UPDATE_CALL = {
  type: 'tool-call',
  toolCallId: 'call_update_1',
  toolName: 'apply_patch',
  input: JSON.stringify({
    patch:
      '*** Begin Patch\n*** Update File: src/app.ts\n@@ function main() {\n-  old();\n+  fresh();\n*** End Patch\n',
  }),
  providerMetadata: { openai: { itemId: 'apc_call_update_1', applyPatchOperation: UPDATE } },
};

describe("OpenAIResponsesProvider and the API's own apply_patch tool", () => {
  it('offers the built-in tool to gpt-5.1 and the function to gpt-5', async () => {
    server().reply(sseResponse(responsesAnswer({ text: 'ok' })), sseResponse(responsesAnswer({ text: 'ok' })));
    await collectChunks(provider('gpt-5.1').stream(patchRequest()));
    await collectChunks(provider('gpt-5').stream(patchRequest()));
    const tools = server().requests.map((request) => (request.body as { tools: unknown[] }).tools);
    expect(tools[0]).toEqual([{ type: 'apply_patch' }]);
    expect(tools[1]).toEqual([
      {
        type: 'function',
        name: 'apply_patch',
        description: APPLY_PATCH_TOOL.description,
        parameters: APPLY_PATCH_TOOL.inputSchema,
        strict: false,
      },
    ]);
  });

  it('offers a compatible server the built-in tool only when the app says the model has it', async () => {
    server().reply(sseResponse(responsesAnswer({ text: 'ok' })), sseResponse(responsesAnswer({ text: 'ok' })));
    await collectChunks(provider('openai/gpt-5.1', true, { compatible: true }).stream(patchRequest()));
    const told = { compatible: true, models: { 'gpt-5.1': { nativeApplyPatch: true } } };
    await collectChunks(provider('openai/gpt-5.1', true, told).stream(patchRequest()));
    const tools = server().requests.map((request) => (request.body as { tools: unknown[] }).tools);
    expect(tools[0]).toEqual([expect.objectContaining({ type: 'function', name: 'apply_patch' })]);
    expect(tools[1]).toEqual([{ type: 'apply_patch' }]);
  });

  it('reads a streamed create_file apply_patch_call as an apply_patch call with an Add File patch', async () => {
    server().reply(sseResponse(chunkFrames('vercel-ai/openai-apply-patch-tool.1.chunks.txt', 'responses')));
    const chunks = await collectChunks(provider('gpt-5.1').stream(patchRequest()));
    expect(chunksOfType(chunks, 'tool-call-start')).toEqual([
      { type: 'tool-call-start', toolCallId: 'call_kA46f91ZwocQyMCKyyZqRyC5', toolName: 'apply_patch' },
    ]);
    expect(chunksOfType(chunks, 'tool-call')).toEqual([CHECKLIST_CALL]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'completed' });
  });

  it('reads a non-streamed create_file apply_patch_call the same way', async () => {
    server().reply(jsonResponse(200, readJsonFixture('vercel-ai/openai-apply-patch-tool.1.json')));
    const chunks = await collectChunks(provider('gpt-5.1', false).stream(patchRequest()));
    const [call] = chunksOfType(chunks, 'tool-call');
    expect(call?.toolCallId).toBe('call_CdXiGtcRl49Q6Ek20tG9lYOr');
    expect(JSON.parse(call?.input ?? '')).toEqual({
      patch:
        '*** Begin Patch\n*** Add File: shopping-checklist.md\n+## Shopping Checklist\n+\n+- [ ] Milk\n+- [ ] Bread\n+- [ ] Eggs\n+- [ ] Apples\n+- [ ] Coffee\n+\n*** End Patch\n',
    });
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'completed' });
  });

  it('reads a delete_file apply_patch_call as a Delete File patch', async () => {
    server().reply(sseResponse(chunkFrames('vercel-ai/openai-apply-patch-tool-delete.1.chunks.txt', 'responses')));
    const chunks = await collectChunks(provider('gpt-5.1').stream(patchRequest()));
    expect(chunksOfType(chunks, 'tool-call')).toEqual([
      {
        type: 'tool-call',
        toolCallId: 'call_delete_1',
        toolName: 'apply_patch',
        input: JSON.stringify({ patch: '*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch\n' }),
        providerMetadata: {
          openai: { itemId: 'apc_delete_001', applyPatchOperation: { type: 'delete_file', path: 'obsolete.txt' } },
        },
      },
    ]);
  });

  it('reads an update_file apply_patch_call as an Update File patch with its hunks, streamed and not', async () => {
    const frames = responsesAnswer({ applyPatchCalls: [{ id: 'call_update_1', operation: UPDATE }] });
    const completed = JSON.parse(frames.at(-1)?.split('data: ')[1] ?? '') as { response: unknown };
    server().reply(sseResponse(frames), jsonResponse(200, completed.response));
    const streamed = await collectChunks(provider('gpt-5.1').stream(patchRequest()));
    const whole = await collectChunks(provider('gpt-5.1', false).stream(patchRequest()));
    expect(chunksOfType(streamed, 'tool-call')).toEqual([UPDATE_CALL]);
    expect(chunksOfType(whole, 'tool-call')).toEqual([UPDATE_CALL]);
  });

  it('reads a diff the response cut off without its End Patch line, so that the tool refuses it', async () => {
    const frame = (event: Record<string, unknown>) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    const item = { id: 'apc_cut', type: 'apply_patch_call', status: 'in_progress', call_id: 'call_cut' };
    server().reply(
      sseResponse([
        frame({ type: 'response.created', response: { id: 'resp_cut', status: 'in_progress', output: [] } }),
        frame({
          type: 'response.output_item.added',
          output_index: 0,
          item: { ...item, operation: { type: 'create_file', path: 'notes.md', diff: '' } },
        }),
        frame({ type: 'response.apply_patch_call_operation_diff.delta', item_id: 'apc_cut', delta: '+# Notes\n+- mi' }),
        frame({
          type: 'response.incomplete',
          response: { id: 'resp_cut', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
        }),
      ]),
    );
    const chunks = await collectChunks(provider('gpt-5.1').stream(patchRequest()));
    const [call] = chunksOfType(chunks, 'tool-call');
    expect(JSON.parse(call?.input ?? '')).toEqual({
      patch: '*** Begin Patch\n*** Add File: notes.md\n+# Notes\n+- mi\n',
    });
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'length', rawReason: 'max_output_tokens' });
  });

  it('sends the call back as an apply_patch_call and its result as apply_patch_call_output with the call id', async () => {
    server().reply(sseResponse(responsesAnswer({ text: 'Done.' })));
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Write a shopping checklist.' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: CHECKLIST_CALL.toolCallId,
            toolName: 'apply_patch',
            arguments: JSON.parse(CHECKLIST_CALL.input),
            providerMetadata: CHECKLIST_CALL.providerMetadata,
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: CHECKLIST_CALL.toolCallId,
            toolName: 'apply_patch',
            content: 'Applied the patch:\nA shopping-checklist.md',
            isError: false,
          },
        ],
      },
    ];
    await collectChunks(provider('gpt-5.1').stream(patchRequest(messages)));
    const input = (server().requests[0]?.body as { input: unknown[] } | undefined)?.input;
    expect(input?.slice(1)).toEqual([
      {
        type: 'apply_patch_call',
        call_id: 'call_kA46f91ZwocQyMCKyyZqRyC5',
        status: 'completed',
        operation: CHECKLIST_CALL.providerMetadata.openai.applyPatchOperation,
      },
      {
        type: 'apply_patch_call_output',
        call_id: 'call_kA46f91ZwocQyMCKyyZqRyC5',
        status: 'completed',
        output: 'Applied the patch:\nA shopping-checklist.md',
      },
    ]);
  });
});

describe("a DefaultAgent with the apply_patch workspace tool over the API's own apply_patch", () => {
  let workspace: string | undefined;
  afterEach(() => {
    if (workspace) rmSync(workspace, { recursive: true, force: true });
    workspace = undefined;
  });

  it('creates and then updates a file in the workspace, answering each call with apply_patch_call_output', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'agentloop-apply-patch-'));
    const create = { type: 'create_file', path: 'notes.md', diff: '+# Notes\n+\n+- buy milk\n' };
    const update = { type: 'update_file', path: 'notes.md', diff: '@@\n # Notes\n \n-- buy milk\n+- buy oat milk\n' };
    server().reply(
      sseResponse(responsesAnswer({ applyPatchCalls: [{ id: 'call_create', operation: create }] }, 'resp_1')),
      sseResponse(responsesAnswer({ applyPatchCalls: [{ id: 'call_update', operation: update }] }, 'resp_2')),
      sseResponse(
        responsesAnswer(
          { toolCalls: [{ id: 'call_done', name: 'task_completion', arguments: { result: 'Notes written.' } }] },
          'resp_3',
        ),
      ),
    );
    const agent = new DefaultAgent(provider('gpt-5.1-codex-max'), {
      systemPrompt: 'You keep notes.',
      toolProtocol: 'native',
      workspace,
    });
    agent.registerTool(createApplyPatchTool());
    const result = await agent.run('Write my shopping note, then make the milk oat milk.');

    expect(result.exit).toBe('task_completion');
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('# Notes\n\n- buy oat milk\n');
    const bodies = server().requests.map((request) => request.body as { tools: unknown[]; input: unknown[] });
    expect(bodies[0]?.tools).toContainEqual({ type: 'apply_patch' });
    expect(bodies[0]?.tools).not.toContainEqual(expect.objectContaining({ type: 'function', name: 'apply_patch' }));
    const patchItems = (bodies[2]?.input ?? []).filter((item) =>
      String((item as { type?: unknown }).type).startsWith('apply_patch'),
    );
    expect(patchItems).toEqual([
      { type: 'apply_patch_call', call_id: 'call_create', status: 'completed', operation: create },
      {
        type: 'apply_patch_call_output',
        call_id: 'call_create',
        status: 'completed',
        output: expect.stringContaining('notes.md'),
      },
      { type: 'apply_patch_call', call_id: 'call_update', status: 'completed', operation: update },
      {
        type: 'apply_patch_call_output',
        call_id: 'call_update',
        status: 'completed',
        output: expect.stringContaining('+- buy oat milk'),
      },
    ]);
  });

  it('sends a patch that does not apply back as a failed apply_patch_call_output, and changes nothing', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'agentloop-apply-patch-'));
    const update = { type: 'update_file', path: 'missing.md', diff: '@@\n-old\n+new\n' };
    server().reply(
      sseResponse(responsesAnswer({ applyPatchCalls: [{ id: 'call_bad', operation: update }] }, 'resp_1')),
      sseResponse(
        responsesAnswer(
          { toolCalls: [{ id: 'call_done', name: 'task_completion', arguments: { result: 'Gave up.' } }] },
          'resp_2',
        ),
      ),
    );
    const agent = new DefaultAgent(provider('gpt-5.1'), { toolProtocol: 'native', workspace });
    agent.registerTool(createApplyPatchTool());
    await agent.run('Change missing.md.');

    const input = (server().requests[1]?.body as { input: unknown[] } | undefined)?.input ?? [];
    expect(input.at(-1)).toEqual({
      type: 'apply_patch_call_output',
      call_id: 'call_bad',
      status: 'failed',
      output: expect.stringContaining('missing.md'),
    });
  });
});

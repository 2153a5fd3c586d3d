import type { Message } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { toResponsesInput } from './to-responses-input.js';

const call: Message = {
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'screenshot', arguments: {} }],
};

function result(content: string, images?: { mediaType: string; data: string }[]): Message {
  return {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_1',
        toolName: 'screenshot',
        content,
        isError: false,
        ...(images ? { images } : {}),
      },
    ],
  };
}

describe('toResponsesInput tool results', () => {
  it('sends a result without images as its text', () => {
    expect(toResponsesInput([call, result('42')])[1]).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: '42',
    });
  });

  it('sends a result with images as input_text then an input_image per image, as a base64 data URL', () => {
    const input = toResponsesInput([
      call,
      result('The page:\n[image: image/png, 4 bytes]', [
        { mediaType: 'image/png', data: 'iVBORw==' },
        { mediaType: 'image/jpeg', data: '/9j/4A==' },
      ]),
    ]);
    expect(input[1]).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: 'The page:\n[image: image/png, 4 bytes]' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBORw==' },
        { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/4A==' },
      ],
    });
  });

  it('leaves out an empty text item, and treats an empty image list as none', () => {
    expect(toResponsesInput([call, result('', [{ mediaType: 'image/gif', data: 'R0lGOA==' }])])[1]).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [{ type: 'input_image', image_url: 'data:image/gif;base64,R0lGOA==' }],
    });
    expect(toResponsesInput([call, result('text', [])])[1]).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: 'text',
    });
  });
});

describe('toResponsesInput custom tool calls', () => {
  const customCall: Message = {
    role: 'assistant',
    content: [
      {
        type: 'tool-call',
        toolCallId: 'call_custom_sql_001',
        toolName: 'write_sql',
        arguments: { input: 'SELECT * FROM users WHERE age > 25' },
        providerMetadata: { openai: { itemId: 'ct_abc123def456', customToolCall: true } },
      },
    ],
  };
  const customResult: Message = {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call_custom_sql_001',
        toolName: 'write_sql',
        content: '3 rows',
        isError: false,
      },
    ],
  };

  it('sends a custom tool call back as a custom_tool_call with its input text, and its result as custom_tool_call_output', () => {
    expect(toResponsesInput([customCall, customResult])).toEqual([
      {
        type: 'custom_tool_call',
        call_id: 'call_custom_sql_001',
        name: 'write_sql',
        input: 'SELECT * FROM users WHERE age > 25',
      },
      { type: 'custom_tool_call_output', call_id: 'call_custom_sql_001', output: '3 rows' },
    ]);
  });

  it('keeps function_call_output for a function call beside a custom one', () => {
    const input = toResponsesInput([customCall, customResult, call, result('42')]);
    expect(input.slice(2)).toEqual([
      { type: 'function_call', call_id: 'call_1', name: 'screenshot', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: '42' },
    ]);
  });
});

describe('toResponsesInput apply_patch calls', () => {
  const operation = { type: 'create_file', path: 'notes.md', diff: '+# Notes\n' };
  const patchCall: Message = {
    role: 'assistant',
    content: [
      {
        type: 'tool-call',
        toolCallId: 'call_patch_1',
        toolName: 'apply_patch',
        arguments: { patch: '*** Begin Patch\n*** Add File: notes.md\n+# Notes\n*** End Patch\n' },
        providerMetadata: { openai: { itemId: 'apc_1', applyPatchOperation: operation } },
      },
    ],
  };
  const patchResult = (content: string, isError: boolean): Message => ({
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'call_patch_1', toolName: 'apply_patch', content, isError }],
  });

  it('sends a call read from an apply_patch_call back as one, and its result as apply_patch_call_output', () => {
    expect(toResponsesInput([patchCall, patchResult('Applied the patch', false)], { nativeApplyPatch: true })).toEqual([
      { type: 'apply_patch_call', call_id: 'call_patch_1', status: 'completed', operation },
      { type: 'apply_patch_call_output', call_id: 'call_patch_1', status: 'completed', output: 'Applied the patch' },
    ]);
  });

  it('marks an error result as a failed apply_patch_call_output', () => {
    const input = toResponsesInput([patchCall, patchResult('"notes.md" already exists', true)], {
      nativeApplyPatch: true,
    });
    expect(input[1]).toEqual({
      type: 'apply_patch_call_output',
      call_id: 'call_patch_1',
      status: 'failed',
      output: '"notes.md" already exists',
    });
  });

  it('sends the same call as a function_call of apply_patch when the request has no built-in tool', () => {
    expect(toResponsesInput([patchCall, patchResult('Applied the patch', false)])).toEqual([
      {
        type: 'function_call',
        call_id: 'call_patch_1',
        name: 'apply_patch',
        arguments: JSON.stringify({ patch: '*** Begin Patch\n*** Add File: notes.md\n+# Notes\n*** End Patch\n' }),
      },
      { type: 'function_call_output', call_id: 'call_patch_1', output: 'Applied the patch' },
    ]);
  });
});

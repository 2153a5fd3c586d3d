import type { Message } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { arrayCapacities, toolLoopHistory } from '../test-support/index.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

describe('toAnthropicMessages', () => {
  it('keeps redacted thinking as is and drops unsigned thinking', () => {
    const { messages } = toAnthropicMessages([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'thinking', text: '', redactedData: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' },
          { type: 'thinking', text: 'from an XML <thinking> block' },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'search', arguments: { query: 'x' } },
        ],
      },
    ]);
    expect(messages[1]?.content).toEqual([
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' },
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'search', input: { query: 'x' } },
    ]);
  });

  it('sends tool results as tool_result blocks in a user message, merged with the user text after them', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Compare a and b' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'toolu_a', toolName: 'read', arguments: { path: 'a' } },
          { type: 'tool-call', toolCallId: 'toolu_b', toolName: 'read', arguments: '{"path":"b"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'toolu_a', toolName: 'read', content: 'A', isError: false },
          { type: 'tool-result', toolCallId: 'toolu_b', toolName: 'read', content: 'no such file', isError: true },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Remember: call a tool.' }] },
    ];
    expect(toAnthropicMessages(history).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Compare a and b' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_a', name: 'read', input: { path: 'a' } },
          { type: 'tool_use', id: 'toolu_b', name: 'read', input: { path: 'b' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'A' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'no such file', is_error: true },
          { type: 'text', text: 'Remember: call a tool.' },
        ],
      },
    ]);
  });

  it('sends undecodable tool arguments as an empty object, since the API wants an object', () => {
    const { messages } = toAnthropicMessages([
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 't', toolName: 'write', arguments: '{"path": "cut' }],
      },
    ]);
    expect(messages[0]?.content).toEqual([{ type: 'tool_use', id: 't', name: 'write', input: {} }]);
  });

  it('leaves out empty text and moves system messages to the system text', () => {
    const conversation = toAnthropicMessages([
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
    ]);
    expect(conversation).toEqual({
      systemText: ['Be brief.'],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });
});

describe('toAnthropicMessages after a provider switch and with blank input', () => {
  it('does not send OpenAI encrypted reasoning as an Anthropic signature', () => {
    const { messages } = toAnthropicMessages([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'thinking',
            text: 'summary',
            signature: 'gAAAA-encrypted',
            providerMetadata: { openai: { itemId: 'rs_1' } },
          },
          { type: 'text', text: 'Hello.' },
        ],
      },
    ]);
    expect(messages[1]?.content).toEqual([{ type: 'text', text: 'Hello.' }]);
  });

  it('drops a whitespace-only user text block, which the API rejects', () => {
    const { messages } = toAnthropicMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: '\n  ' },
          { type: 'text', text: 'Go' },
        ],
      },
    ]);
    expect(messages[0]?.content).toEqual([{ type: 'text', text: 'Go' }]);
  });
});

describe('toAnthropicMessages with images in tool results', () => {
  const call: Message = {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'toolu_1', toolName: 'screenshot', arguments: {} }],
  };
  const result = (content: string, images: { mediaType: string; data: string }[]): Message => ({
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'screenshot', content, images, isError: false }],
  });

  it('sends the text then an image block per image, with a base64 source', () => {
    const { messages } = toAnthropicMessages([
      call,
      result('The page:\n[image: image/png, 4 bytes]', [
        { mediaType: 'image/png', data: 'iVBORw==' },
        { mediaType: 'image/webp', data: 'UklGRg==' },
      ]),
    ]);
    expect(messages[1]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: 'The page:\n[image: image/png, 4 bytes]' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw==' } },
            { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' } },
          ],
        },
      ],
    });
  });

  it('leaves out an empty text block and images of a type the API does not take', () => {
    const { messages } = toAnthropicMessages([
      call,
      result('', [
        { mediaType: 'image/svg+xml', data: 'PHN2Zz4=' },
        { mediaType: 'image/gif', data: 'R0lGOA==' },
      ]),
    ]);
    expect(messages[1]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [{ type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGOA==' } }],
      },
    ]);
  });

  it('sends the text alone when no image is of a type the API takes', () => {
    const { messages } = toAnthropicMessages([
      call,
      result('[image: image/bmp, 4 bytes]', [{ mediaType: 'image/bmp', data: 'Qk0=' }]),
    ]);
    expect(messages[1]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: '[image: image/bmp, 4 bytes]' },
    ]);
  });
});

describe('toAnthropicMessages arrays', () => {
  it('keeps no spare room in the content arrays of the assistant messages a conversation holds', async () => {
    const { messages } = toAnthropicMessages(toolLoopHistory(3));
    const contents = messages.flatMap((message) =>
      message.role === 'assistant' ? [message.content as unknown[]] : [],
    );
    expect(contents.map((content) => content.length)).toEqual([2, 2, 2]);
    expect(await arrayCapacities(contents)).toEqual([2, 2, 2]);
  });
});

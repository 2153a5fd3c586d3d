import type { Message } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
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

import { describe, expect, it } from 'vitest';
import type { AssistantMessage, ToolMessage } from './message.js';
import { messageText, systemMessage, toolCallsOf, userMessage } from './message.js';

const assistant: AssistantMessage = {
  role: 'assistant',
  content: [
    { type: 'thinking', text: 'hidden reasoning', signature: 'sig' },
    { type: 'text', text: 'Reading ' },
    { type: 'tool-call', toolCallId: 'call-1', toolName: 'read_file', arguments: { path: 'a.ts' } },
    { type: 'text', text: 'both files.' },
    { type: 'tool-call', toolCallId: 'call-2', toolName: 'read_file', arguments: { path: 'b.ts' } },
  ],
};

describe('userMessage', () => {
  it('makes a user message with one text part', () => {
    expect(userMessage('hello')).toStrictEqual({ role: 'user', content: [{ type: 'text', text: 'hello' }] });
  });
});

describe('systemMessage', () => {
  it('makes a system message with one text part', () => {
    expect(systemMessage('be brief')).toStrictEqual({ role: 'system', content: [{ type: 'text', text: 'be brief' }] });
  });
});

describe('messageText', () => {
  it('gives the text of a single-part message', () => {
    expect(messageText(userMessage('hello'))).toBe('hello');
  });

  it('joins the text parts in order, leaving out thinking and tool calls', () => {
    expect(messageText(assistant)).toBe('Reading both files.');
  });

  it('gives an empty string for a message without text parts', () => {
    const tool: ToolMessage = {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'call-1', toolName: 'read_file', content: 'file text', isError: false },
      ],
    };

    expect(messageText(tool)).toBe('');
  });
});

describe('toolCallsOf', () => {
  it('gives the tool calls of a message in order', () => {
    expect(toolCallsOf(assistant).map((call) => call.toolCallId)).toEqual(['call-1', 'call-2']);
  });

  it('gives the calls themselves, with their arguments', () => {
    expect(toolCallsOf(assistant)[1]).toStrictEqual({
      type: 'tool-call',
      toolCallId: 'call-2',
      toolName: 'read_file',
      arguments: { path: 'b.ts' },
    });
  });

  it('gives an empty list for a message without tool calls', () => {
    expect(toolCallsOf(userMessage('hello'))).toEqual([]);
  });
});

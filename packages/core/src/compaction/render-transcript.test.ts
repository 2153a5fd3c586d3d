import type { Message } from '@agentloop/spec';
import { userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { cutMiddle, renderTranscript } from './render-transcript.js';

const countText = (text: string) => Math.ceil(text.length / 4);
const step: Message[] = [
  {
    role: 'assistant',
    content: [
      { type: 'thinking', text: 'The test imports fastify.', signature: 'sig' },
      { type: 'text', text: 'Reading the test.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', arguments: { path: 'a.test.ts' } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', content: 'import fastify', isError: false },
    ],
  },
];

describe('renderTranscript', () => {
  it('writes who said what, each call with its arguments and each result', () => {
    const { text, omittedMessages } = renderTranscript([userMessage('Fix it.'), ...step], {
      maxTokens: 1_000,
      countText,
    });

    expect(text).toBe(
      [
        '[user]\nFix it.',
        '[assistant thinking]\nThe test imports fastify.\n[assistant]\nReading the test.\n[assistant called read_file] {"path":"a.test.ts"}',
        '[read_file result]\nimport fastify',
      ].join('\n\n'),
    );
    expect(omittedMessages).toBe(0);
  });

  it('marks a failed result and the XML protocol results', () => {
    const failed: Message = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'run', content: 'exit 1', isError: true }],
    };
    const xml = userMessage('<tool_result tool_name="run" status="ok">\nok\n</tool_result>');

    expect(renderTranscript([failed, xml], { maxTokens: 1_000, countText }).text).toBe(
      '[run error]\nexit 1\n\n[tool results]\n<tool_result tool_name="run" status="ok">\nok\n</tool_result>',
    );
  });

  it('cuts long results in the middle', () => {
    const long: Message = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c',
          toolName: 'read',
          content: 'a'.repeat(60) + 'b'.repeat(40),
          isError: false,
        },
      ],
    };
    expect(renderTranscript([long], { maxTokens: 1_000, countText, maxResultChars: 30 }).text).toBe(
      `[read result]\n${'a'.repeat(20)}\n[… 70 characters cut …]\n${'b'.repeat(10)}`,
    );
  });

  it('keeps the newest messages and says how many of the oldest did not fit', () => {
    const messages = Array.from({ length: 10 }, (_, index) => userMessage(`message ${index} ${'x'.repeat(30)}`));
    // Each message is 47 characters (12 tokens): 40 tokens hold the newest three.
    const { text, omittedMessages } = renderTranscript(messages, { maxTokens: 40, countText });

    expect(omittedMessages).toBe(7);
    expect(
      text.startsWith('[The 7 oldest messages of this part are left out: they did not fit.]\n\n[user]\nmessage 7'),
    ).toBe(true);
    expect(text.endsWith('message 9 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')).toBe(true);
  });

  it('keeps the newest message even when it alone is over the limit', () => {
    expect(renderTranscript([userMessage('x'.repeat(100))], { maxTokens: 1, countText }).omittedMessages).toBe(0);
  });
});

describe('cutMiddle', () => {
  it('leaves a text within the limit as it is', () => {
    expect(cutMiddle('short', 5)).toBe('short');
  });
});

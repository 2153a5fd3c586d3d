import { describe, expect, it } from 'vitest';
import { promptInputText, toPromptResult, toPromptSummary } from './mcp-prompt.js';

describe('toPromptSummary', () => {
  it('drops escape sequences and bidirectional controls from names and prose, keeping newlines', () => {
    const summary = toPromptSummary({
      name: 'review\u001b[2J',
      title: 'Re\u202eview',
      description: 'Line one\n\u001b]0;owned\u0007Line two',
      arguments: [
        { name: 'file\u0000', description: 'The \u001b[31mfile\u001b[0m', required: true },
        { name: 'depth' },
      ],
    });
    expect(summary).toEqual({
      name: 'review',
      title: 'Review',
      description: 'Line one\nLine two',
      arguments: [
        { name: 'file', description: 'The file', required: true },
        { name: 'depth', required: false },
      ],
    });
  });
});

describe('toPromptResult', () => {
  it('describes an image by type and size and cleans the text', () => {
    const result = toPromptResult({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Look\u001b[1m here' } },
        { role: 'user', content: { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' } },
      ],
    });
    expect(result.messages).toEqual([
      { role: 'user', text: 'Look here' },
      { role: 'user', text: '[image: image/png, 5 bytes]' },
    ]);
  });
});

describe('promptInputText', () => {
  it('gives a single user message as it is', () => {
    expect(promptInputText({ messages: [{ role: 'user', text: 'Review it.' }] })).toBe('Review it.');
  });

  it('joins user messages, and labels each message by role when the assistant speaks too', () => {
    expect(
      promptInputText({
        messages: [
          { role: 'user', text: 'a' },
          { role: 'user', text: 'b' },
        ],
      }),
    ).toBe('a\n\nb');
    expect(
      promptInputText({
        messages: [
          { role: 'user', text: 'Hi' },
          { role: 'assistant', text: 'Hello' },
        ],
      }),
    ).toBe('[user]\nHi\n\n[assistant]\nHello');
  });
});

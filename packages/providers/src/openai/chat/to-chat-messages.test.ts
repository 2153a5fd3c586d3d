import type { Message } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { arrayCapacities, toolLoopHistory } from '../../test-support/index.js';
import { toChatMessages } from './to-chat-messages.js';

describe('toChatMessages tool results', () => {
  it('sends a result with images as its text alone, which describes them: tool messages hold text only', () => {
    const history: Message[] = [
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'screenshot', arguments: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'screenshot',
            content: 'The page:\n[image: image/png, 4 bytes]',
            images: [{ mediaType: 'image/png', data: 'iVBORw==' }],
            isError: false,
          },
        ],
      },
    ];
    const messages = toChatMessages('', history, { sendReasoning: false });
    expect(messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'The page:\n[image: image/png, 4 bytes]',
    });
    expect(JSON.stringify(messages)).not.toContain('iVBORw==');
  });
});

describe('toChatMessages arrays', () => {
  it('keeps no spare room in the tool_calls arrays a conversation holds', async () => {
    const messages = toChatMessages('', toolLoopHistory(3), { sendReasoning: false });
    const toolCalls = messages.flatMap((message) => (message.role === 'assistant' ? [message.tool_calls ?? []] : []));
    expect(toolCalls.map((calls) => calls.length)).toEqual([1, 1, 1]);
    expect(await arrayCapacities(toolCalls)).toEqual([1, 1, 1]);
  });
});

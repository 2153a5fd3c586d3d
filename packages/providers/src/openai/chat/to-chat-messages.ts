import type { Message } from '@agentloop/core';
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { memoizeByMessage } from '../../messages/index.js';

/**
 * Converts the project's messages to Chat Completions messages: the system prompt first, each tool result
 * as its own `tool` message, tool calls with their arguments as JSON text. Reasoning is not sent back:
 * the API has no field for it and compatible servers reject or ignore it.
 */
export function toChatMessages(systemPrompt: string, history: readonly Message[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (systemPrompt !== '') messages.push({ role: 'system', content: systemPrompt });
  for (const message of history) messages.push(...chatMessagesOf(message));
  return messages;
}

/** The Chat Completions messages of one message, converted once per message; never mutate them. */
const chatMessagesOf = memoizeByMessage((message: Message): ChatCompletionMessageParam[] => {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: message.content.map((part) => part.text).join('') }];
    case 'user':
      return [{ role: 'user', content: message.content.map((part) => part.text).join('') }];
    case 'assistant': {
      let text = '';
      const toolCalls: ChatCompletionMessageToolCall[] = [];
      for (const part of message.content) {
        if (part.type === 'text') text += part.text;
        else if (part.type === 'tool-call') {
          toolCalls.push({
            id: part.toolCallId,
            type: 'function',
            function: { name: part.toolName, arguments: argumentsText(part.arguments) },
          });
        }
      }
      if (text === '' && toolCalls.length === 0) return [];
      return [
        {
          role: 'assistant',
          content: text === '' ? null : text,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
      ];
    }
    case 'tool':
      return message.content.map((part) => ({ role: 'tool', tool_call_id: part.toolCallId, content: part.content }));
  }
});

/** Arguments as JSON text; text the loop could not decode goes back as it was written. */
export function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}

import type { AssistantMessage, Message } from '@agentloop/spec';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import { ConversationCache } from '../../messages/index.js';

/** How the messages are written for the server at hand. */
export interface ChatMessageSettings {
  /** Assistant messages carry their reasoning as `reasoning_content` (see OpenAIProviderOptions.sendReasoning). */
  sendReasoning: boolean;
}

/** An assistant message with the reasoning field that compatible servers (DeepSeek, Kimi, vLLM) read. */
type CompatibleAssistantMessageParam = ChatCompletionAssistantMessageParam & { reasoning_content?: string };

/**
 * Converts the project's messages to Chat Completions messages: the system prompt first, each tool result
 * as its own `tool` message, tool calls with their arguments as JSON text. Reasoning goes back, as
 * `reasoning_content` on its assistant message, only when `sendReasoning` says so: DeepSeek's thinking mode
 * rejects a tool-call message without it and Kimi K2 Thinking degrades, while OpenAI's API has no such
 * field and strict servers reject it.
 */
export function toChatMessages(
  systemPrompt: string,
  history: readonly Message[],
  settings: ChatMessageSettings,
): ChatCompletionMessageParam[] {
  const { messages } = (settings.sendReasoning ? conversationsWithReasoning : conversations).convert(history);
  // A fresh array: the cached one grows with the conversation, and a request's body must not change after it.
  return systemPrompt === '' ? messages.slice() : [{ role: 'system', content: systemPrompt }, ...messages];
}

/** A conversation's Chat Completions messages, and how many of them the first n of its messages made. */
interface ChatConversion {
  messages: ChatCompletionMessageParam[];
  ends: number[];
}

function conversationCache(convert: (message: Message) => ChatCompletionMessageParam[]) {
  return new ConversationCache<ChatConversion>(
    () => ({ messages: [], ends: [] }),
    (state, keep) => {
      state.messages.length = keep === 0 ? 0 : (state.ends[keep - 1] as number);
      state.ends.length = keep;
      return keep;
    },
    (state, history, from) => {
      for (let index = from; index < history.length; index++) {
        for (const converted of convert(history[index] as Message)) state.messages.push(converted);
        state.ends.push(state.messages.length);
      }
    },
  );
}

/**
 * Conversations without and with reasoning. Each variant has its own cache, so that a message converted for
 * one kind of server never reaches the other.
 */
const conversations = conversationCache((message) => convertMessage(message, false));
const conversationsWithReasoning = conversationCache((message) => convertMessage(message, true));

function convertMessage(message: Message, withReasoning: boolean): ChatCompletionMessageParam[] {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: message.content.map((part) => part.text).join('') }];
    case 'user':
      return [{ role: 'user', content: message.content.map((part) => part.text).join('') }];
    case 'assistant':
      return assistantMessages(message, withReasoning);
    case 'tool':
      // A tool message holds text only: a result's images stay out, described by its content.
      return message.content.map((part) => ({ role: 'tool', tool_call_id: part.toolCallId, content: part.content }));
  }
}

function assistantMessages(message: AssistantMessage, withReasoning: boolean): ChatCompletionMessageParam[] {
  let text = '';
  let reasoning = '';
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  for (const part of message.content) {
    if (part.type === 'text') text += part.text;
    // Redacted reasoning is opaque data for its own provider, with no text to show another server.
    else if (part.type === 'thinking') reasoning += part.redactedData === undefined ? part.text : '';
    else {
      toolCalls.push({
        id: part.toolCallId,
        type: 'function',
        function: { name: part.toolName, arguments: argumentsText(part.arguments) },
      });
    }
  }
  if (text === '' && toolCalls.length === 0) return [];
  const assistant: CompatibleAssistantMessageParam = {
    role: 'assistant',
    content: text === '' ? null : text,
    // A copy: an array grown by push keeps room for 17 entries, and this one lives with the conversation.
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls.slice() } : {}),
    ...(withReasoning && reasoning !== '' ? { reasoning_content: reasoning } : {}),
  };
  return [assistant];
}

/** Arguments as JSON text; text the loop could not decode goes back as it was written. */
export function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}

import type { AssistantMessage, Message, ToolResultPart } from '@agentloop/spec';
import type {
  ResponseCustomToolCallOutput,
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { ConversationCache } from '../../messages/index.js';
import { argumentsText } from '../chat/to-chat-messages.js';

/**
 * Converts the project's messages to Responses API input items: tool calls as `function_call` items (a
 * custom tool's as `custom_tool_call`, its input from the `input` argument), tool
 * results as `function_call_output` (`custom_tool_call_output` for a custom call) (with `input_image` items for their images), and reasoning as `reasoning` items with their encrypted content, so
 * that reasoning carries across turns without server-side storage. Reasoning without encrypted content
 * (from another provider) is left out: the server could not look it up.
 */
export function toResponsesInput(history: readonly Message[]): ResponseInputItem[] {
  // A fresh array: the cached one grows with the conversation, and a request's body must not change after it.
  return conversations.convert(history).items.slice();
}

/**
 * A conversation's input items, how many of them the first n of its messages made, and the custom tool
 * calls met so far with the message that first made each. The API answers a custom tool call only with a
 * custom_tool_call_output; a tool message does not know which kind its call was, so the calls before it say.
 */
interface ResponsesConversion {
  items: ResponseInputItem[];
  ends: number[];
  /** Made on the first custom call: most conversations have none. */
  customCalls: Map<string, number> | undefined;
}

const conversations = new ConversationCache<ResponsesConversion>(
  () => ({ items: [], ends: [], customCalls: undefined }),
  (state, keep) => {
    if (keep < state.ends.length) {
      state.items.length = keep === 0 ? 0 : (state.ends[keep - 1] as number);
      state.ends.length = keep;
      for (const [callId, index] of state.customCalls ?? []) if (index >= keep) state.customCalls?.delete(callId);
    }
    return keep;
  },
  (state, history, from) => {
    for (let index = from; index < history.length; index++) {
      for (const item of itemsOf(history[index] as Message)) {
        if (item.type === 'custom_tool_call' && !state.customCalls?.has(item.call_id)) {
          state.customCalls ??= new Map();
          state.customCalls.set(item.call_id, index);
        }
        if (item.type === 'function_call_output' && state.customCalls?.has(item.call_id)) {
          // functionCallOutput makes only text and images, which a custom output takes as well.
          const output = item.output as ResponseCustomToolCallOutput['output'];
          state.items.push({ type: 'custom_tool_call_output', call_id: item.call_id, output });
        } else state.items.push(item);
      }
      state.ends.push(state.items.length);
    }
  },
);

/** The input items of one message. */
function itemsOf(message: Message): ResponseInputItem[] {
  switch (message.role) {
    case 'system':
    case 'user':
      return [{ role: message.role, content: message.content.map((part) => part.text).join('') }];
    case 'assistant':
      return assistantItems(message);
    case 'tool':
      return message.content.map((part) => ({
        type: 'function_call_output',
        call_id: part.toolCallId,
        output: functionCallOutput(part),
      }));
  }
}

/**
 * A result's text as it is, or, when it has images, its text (which describes them) as `input_text` then
 * each image as an `input_image` with a base64 data URL.
 */
function functionCallOutput(part: ToolResultPart): string | ResponseFunctionCallOutputItemList {
  if (!part.images?.length) return part.content;
  const output: ResponseFunctionCallOutputItemList =
    part.content === '' ? [] : [{ type: 'input_text', text: part.content }];
  for (const image of part.images)
    output.push({ type: 'input_image', image_url: `data:${image.mediaType};base64,${image.data}` });
  return output;
}

function assistantItems(message: AssistantMessage): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  let text = '';
  const flushText = (): void => {
    if (text !== '') items.push({ role: 'assistant', content: text });
    text = '';
  };
  for (const part of message.content) {
    if (part.type === 'text') {
      text += part.text;
      continue;
    }
    flushText();
    if (part.type === 'thinking') {
      const itemId = openaiItemId(part.providerMetadata);
      if (!part.signature || itemId === undefined) continue;
      items.push({
        type: 'reasoning',
        id: itemId,
        encrypted_content: part.signature,
        summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
      });
    } else if (isCustomToolCall(part.providerMetadata)) {
      const input = (part.arguments as { input?: unknown } | null | undefined)?.input;
      items.push({
        type: 'custom_tool_call',
        call_id: part.toolCallId,
        name: part.toolName,
        input: typeof input === 'string' ? input : argumentsText(part.arguments),
      });
    } else {
      items.push({
        type: 'function_call',
        call_id: part.toolCallId,
        name: part.toolName,
        arguments: argumentsText(part.arguments),
      });
    }
  }
  flushText();
  return items;
}

function openaiItemId(metadata: Record<string, unknown> | undefined): string | undefined {
  const openai = metadata?.openai as { itemId?: unknown } | undefined;
  return typeof openai?.itemId === 'string' ? openai.itemId : undefined;
}

/** True for a call the Responses reader marked as a custom tool call (free-form input). */
function isCustomToolCall(metadata: Record<string, unknown> | undefined): boolean {
  return (metadata?.openai as { customToolCall?: unknown } | undefined)?.customToolCall === true;
}

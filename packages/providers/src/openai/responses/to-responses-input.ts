import type { AssistantMessage, Message, ToolResultPart } from '@agentloop/spec';
import type {
  ResponseCustomToolCallOutput,
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { memoizeByMessage } from '../../messages/index.js';
import { argumentsText } from '../chat/to-chat-messages.js';

/**
 * Converts the project's messages to Responses API input items: tool calls as `function_call` items (a
 * custom tool's as `custom_tool_call`, its input from the `input` argument), tool
 * results as `function_call_output` (`custom_tool_call_output` for a custom call) (with `input_image` items for their images), and reasoning as `reasoning` items with their encrypted content, so
 * that reasoning carries across turns without server-side storage. Reasoning without encrypted content
 * (from another provider) is left out: the server could not look it up.
 */
export function toResponsesInput(history: readonly Message[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  // The API answers a custom tool call only with a custom_tool_call_output; a tool message does not know
  // which kind its call was, so the calls met so far say it.
  const customCalls = new Set<string>();
  for (const message of history) {
    for (const item of itemsOf(message)) {
      if (item.type === 'custom_tool_call') customCalls.add(item.call_id);
      if (item.type === 'function_call_output' && customCalls.has(item.call_id)) {
        // functionCallOutput makes only text and images, which a custom output takes as well.
        const output = item.output as ResponseCustomToolCallOutput['output'];
        items.push({ type: 'custom_tool_call_output', call_id: item.call_id, output });
      } else items.push(item);
    }
  }
  return items;
}

/** The input items of one message, converted once per message; never mutate them. */
const itemsOf = memoizeByMessage((message: Message): ResponseInputItem[] => {
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
});

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

import type { AssistantMessage, Message, ToolResultPart } from '@agentloop/spec';
import type { ResponseFunctionCallOutputItemList, ResponseInputItem } from 'openai/resources/responses/responses';
import { memoizeByMessage } from '../../messages/index.js';
import { argumentsText } from '../chat/to-chat-messages.js';

/**
 * Converts the project's messages to Responses API input items: tool calls as `function_call` items, tool
 * results as `function_call_output` (with `input_image` items for their images), and reasoning as `reasoning` items with their encrypted content, so
 * that reasoning carries across turns without server-side storage. Reasoning without encrypted content
 * (from another provider) is left out: the server could not look it up.
 */
export function toResponsesInput(history: readonly Message[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of history) items.push(...itemsOf(message));
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

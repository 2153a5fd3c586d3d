import type { AssistantMessage, Message, ToolResultPart } from '@agentloop/spec';
import type {
  ResponseCustomToolCallOutput,
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { ConversationCache } from '../../messages/index.js';
import { argumentsText } from '../chat/to-chat-messages.js';
import type { ApplyPatchOperation } from './apply-patch-operation.js';

/** How the history is sent besides its messages. */
export interface ResponsesInputOptions {
  /**
   * The request offers the API's own apply_patch tool: calls the reader took from `apply_patch_call`s go
   * back as `apply_patch_call` items and their results as `apply_patch_call_output`. Otherwise they go
   * as ordinary calls of the `apply_patch` function, whose arguments they already are.
   */
  nativeApplyPatch?: boolean;
}

/**
 * Converts the project's messages to Responses API input items: tool calls as `function_call` items (a
 * custom tool's as `custom_tool_call`, its input from the `input` argument), tool
 * results as `function_call_output` (`custom_tool_call_output` for a custom call) (with `input_image` items for their images), and reasoning as `reasoning` items with their encrypted content, so
 * that reasoning carries across turns without server-side storage. Reasoning without encrypted content
 * (from another provider) is left out: the server could not look it up. With `nativeApplyPatch`, a call
 * read from an `apply_patch_call` goes back as one, its result as `apply_patch_call_output` (status
 * `failed` for an error result).
 */
export function toResponsesInput(
  history: readonly Message[],
  options: ResponsesInputOptions = {},
): ResponseInputItem[] {
  const cache = options.nativeApplyPatch ? withNativeApplyPatch : withoutNativeApplyPatch;
  // A fresh array: the cached one grows with the conversation, and a request's body must not change after it.
  return cache.convert(history).items.slice();
}

/**
 * A conversation's input items, how many of them the first n of its messages made, and the custom tool
 * calls and apply_patch calls met so far with the message that first made each. The API answers a custom
 * tool call only with a custom_tool_call_output (an apply_patch_call with an apply_patch_call_output); a
 * tool message does not know which kind its call was, so the calls before it say.
 */
interface ResponsesConversion {
  items: ResponseInputItem[];
  ends: number[];
  /** Made on the first custom call: most conversations have none. */
  customCalls: Map<string, number> | undefined;
  /** Made on the first apply_patch_call sent as one. */
  patchCalls: Map<string, number> | undefined;
}

/** One cache per way of sending apply_patch calls, since the same messages convert differently. */
function responsesConversions(nativeApplyPatch: boolean): ConversationCache<ResponsesConversion> {
  return new ConversationCache<ResponsesConversion>(
    () => ({ items: [], ends: [], customCalls: undefined, patchCalls: undefined }),
    (state, keep) => {
      if (keep < state.ends.length) {
        state.items.length = keep === 0 ? 0 : (state.ends[keep - 1] as number);
        state.ends.length = keep;
        for (const calls of [state.customCalls, state.patchCalls])
          for (const [callId, index] of calls ?? []) if (index >= keep) calls?.delete(callId);
      }
      return keep;
    },
    (state, history, from) => {
      for (let index = from; index < history.length; index++) {
        const message = history[index] as Message;
        itemsOf(message).forEach((item, position) => {
          state.items.push(sentItem(state, message, item, position, index, nativeApplyPatch));
        });
        state.ends.push(state.items.length);
      }
    },
  );
}

const withNativeApplyPatch = responsesConversions(true);
const withoutNativeApplyPatch = responsesConversions(false);

/** The item sent for `item`, the `position`-th of message `index`, given the calls met before it. */
function sentItem(
  state: ResponsesConversion,
  message: Message,
  item: ResponseInputItem,
  position: number,
  index: number,
  nativeApplyPatch: boolean,
): ResponseInputItem {
  if (item.type === 'custom_tool_call' && !state.customCalls?.has(item.call_id)) {
    state.customCalls ??= new Map();
    state.customCalls.set(item.call_id, index);
  }
  const operation =
    nativeApplyPatch && item.type === 'function_call' && message.role === 'assistant'
      ? applyPatchOperationOf(message, item.call_id)
      : undefined;
  if (operation && item.type === 'function_call') {
    state.patchCalls ??= new Map();
    state.patchCalls.set(item.call_id, index);
    return { type: 'apply_patch_call', call_id: item.call_id, status: 'completed', operation };
  }
  if (item.type === 'function_call_output' && state.patchCalls?.has(item.call_id) && message.role === 'tool') {
    // A tool message has one item per result, in order.
    const part = message.content[position];
    return {
      type: 'apply_patch_call_output',
      call_id: item.call_id,
      status: part?.isError ? 'failed' : 'completed',
      output: part?.content ?? '',
    };
  }
  if (item.type === 'function_call_output' && state.customCalls?.has(item.call_id)) {
    // functionCallOutput makes only text and images, which a custom output takes as well.
    const output = item.output as ResponseCustomToolCallOutput['output'];
    return { type: 'custom_tool_call_output', call_id: item.call_id, output };
  }
  return item;
}

/** The operation the Responses reader kept for the call `callId` of `message`, if it was an apply_patch_call. */
function applyPatchOperationOf(message: AssistantMessage, callId: string) {
  for (const part of message.content) {
    if (part.type !== 'tool-call' || part.toolCallId !== callId) continue;
    const operation = (part.providerMetadata?.openai as { applyPatchOperation?: ApplyPatchOperation } | undefined)
      ?.applyPatchOperation;
    if (typeof operation?.path !== 'string' || typeof operation.type !== 'string') return undefined;
    // The API's own operation types; the SDK's type lists them.
    return operation as ResponseInputItem.ApplyPatchCall['operation'];
  }
  return undefined;
}

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

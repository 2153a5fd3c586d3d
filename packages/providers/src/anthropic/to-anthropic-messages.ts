import type { AssistantMessage, Message, ToolMessage, ToolResultImage, ToolResultPart } from '@agentloop/spec';
import type {
  Base64ImageSource,
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { ConversationCache } from '../messages/index.js';

/** The conversation in the Messages API's shape. */
export interface AnthropicConversation {
  /** Text of `system` messages found in the history (the request's system prompt goes first). */
  systemText: string[];
  messages: MessageParam[];
}

/**
 * Converts the project's messages to Anthropic's. Tool results travel as `tool_result` blocks at the start
 * of a user message (merged with user text that follows, since roles must alternate), with their images as
 * `image` blocks; signed thinking goes
 * back unchanged and before the tool uses, redacted thinking as `redacted_thinking`; unsigned thinking (from
 * another provider or the XML protocol) is dropped, since Anthropic rejects it.
 */
export function toAnthropicMessages(history: readonly Message[]): AnthropicConversation {
  const state = conversations.convert(history);
  // Fresh arrays: the cached ones grow with the conversation, and a request's body must not change after it.
  return { systemText: state.systemText.slice(), messages: state.messages.slice() };
}

/**
 * A conversation in the Messages API's shape, with marks to cut it back: per history message, how many API
 * messages and system texts there were after it; per API message, the history message that opened it.
 */
interface AnthropicConversion extends AnthropicConversation {
  messageCounts: number[];
  systemCounts: number[];
  openedBy: number[];
}

const conversations = new ConversationCache<AnthropicConversion>(
  () => ({ systemText: [], messages: [], messageCounts: [], systemCounts: [], openedBy: [] }),
  (state, keep) => {
    // The last API message of the prefix may take in the messages after it (roles alternate), and it is
    // the one a request marks for caching: it is always redone, from the history message that opened it.
    const count = keep === 0 ? 0 : (state.messageCounts[keep - 1] as number);
    const kept = Math.max(0, count - 1);
    const from = kept < count ? (state.openedBy[kept] as number) : keep;
    state.messages.length = kept;
    state.openedBy.length = kept;
    state.systemText.length = from === 0 ? 0 : (state.systemCounts[from - 1] as number);
    state.messageCounts.length = from;
    state.systemCounts.length = from;
    return from;
  },
  (state, history, from) => {
    const { messages, systemText } = state;
    const firstNew = messages.length;
    for (let index = from; index < history.length; index++) {
      const message = history[index] as Message;
      if (message.role === 'system') systemText.push(message.content.map((part) => part.text).join(''));
      else {
        const role = message.role === 'assistant' ? 'assistant' : 'user';
        const content = blocksOf(message);
        const last = messages.at(-1);
        // A kept message is never merged into: the message after it in the prefix had the other role.
        if (content.length === 0) {
          // Nothing to send (an empty text): nothing to merge either.
        } else if (last?.role === role && Array.isArray(last.content)) {
          for (const block of content) last.content.push(block);
        } else {
          // blocksOf made the array for this message alone: it can be the API message's own.
          messages.push({ role, content });
          state.openedBy.push(index);
        }
      }
      state.messageCounts.push(messages.length);
      state.systemCounts.push(systemText.length);
    }
    for (let index = firstNew; index < messages.length; index++) {
      const content = (messages[index] as MessageParam).content;
      if ((messages[index] as MessageParam).role === 'user' && Array.isArray(content)) toolResultsFirst(content);
    }
  },
);

/** Anthropic wants a user message's `tool_result` blocks before anything else in it. */
function toolResultsFirst(content: ContentBlockParam[]): void {
  const firstOther = content.findIndex((block) => block.type !== 'tool_result');
  if (firstOther < 0 || !content.some((block, index) => index > firstOther && block.type === 'tool_result')) return;
  const results = content.filter((block) => block.type === 'tool_result');
  const others = content.filter((block) => block.type !== 'tool_result');
  content.splice(0, content.length, ...results, ...others);
}

/**
 * A message's blocks. Not cached per message: the conversation cache converts each message once while the
 * conversation grows, and a second cache would hold a second copy of every conversation.
 */
function blocksOf(message: Message): ContentBlockParam[] {
  switch (message.role) {
    case 'user':
      // The API rejects a text block that is empty or only whitespace.
      return message.content
        .filter((part) => part.text.trim() !== '')
        .map((part) => ({ type: 'text', text: part.text }));
    case 'assistant':
      return assistantBlocks(message);
    case 'tool':
      return toolResultBlocks(message);
    default:
      return [];
  }
}

function assistantBlocks(message: AssistantMessage): ContentBlockParam[] {
  const thinking: ContentBlockParam[] = [];
  const rest: ContentBlockParam[] = [];
  for (const part of message.content) {
    if (part.type === 'thinking') {
      if (part.redactedData !== undefined) thinking.push({ type: 'redacted_thinking', data: part.redactedData });
      // OpenAI's encrypted reasoning also travels as `signature` (after a provider switch): not Anthropic's.
      else if (part.signature && part.providerMetadata?.openai === undefined)
        thinking.push({ type: 'thinking', thinking: part.text, signature: part.signature });
    } else if (part.type === 'text') {
      // Anthropic rejects empty text blocks.
      if (part.text.trim() !== '') rest.push({ type: 'text', text: part.text });
    } else {
      rest.push({ type: 'tool_use', id: part.toolCallId, name: part.toolName, input: toolInput(part.arguments) });
    }
  }
  // concat and slice make arrays of the exact size: one grown by push (or spread) keeps room for 17 entries,
  // and these live with the conversation.
  return thinking.length === 0 ? rest.slice() : thinking.concat(rest);
}

function toolResultBlocks(message: ToolMessage): ToolResultBlockParam[] {
  return message.content.map((part) => ({
    type: 'tool_result',
    tool_use_id: part.toolCallId,
    content: toolResultContent(part),
    ...(part.isError ? { is_error: true } : {}),
  }));
}

/** The image types the Messages API takes; others stay out, described by the result's text. */
const ANTHROPIC_IMAGE_TYPES: ReadonlySet<string> = new Set<Base64ImageSource['media_type']>([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

/**
 * A result's text as it is, or, when it has images Anthropic takes, its text (which describes them) then
 * an `image` block per image.
 */
function toolResultContent(part: ToolResultPart): ToolResultBlockParam['content'] {
  const images = (part.images ?? []).filter((image) => ANTHROPIC_IMAGE_TYPES.has(image.mediaType));
  if (images.length === 0) return part.content;
  // The API rejects an empty text block.
  const text: TextBlockParam[] = part.content.trim() === '' ? [] : [{ type: 'text', text: part.content }];
  return [...text, ...images.map(imageBlock)];
}

function imageBlock(image: ToolResultImage): ImageBlockParam {
  return {
    type: 'image',
    source: { type: 'base64', media_type: image.mediaType as Base64ImageSource['media_type'], data: image.data },
  };
}

/** `tool_use.input` must be an object; a call whose arguments could not be decoded goes back as `{}`. */
function toolInput(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      return toolInput(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

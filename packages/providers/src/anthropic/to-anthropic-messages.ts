import type { AssistantMessage, Message, ToolMessage, ToolResultImage, ToolResultPart } from '@agentloop/spec';
import type {
  Base64ImageSource,
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { memoizeByMessage } from '../messages/index.js';

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
  const systemText: string[] = [];
  const messages: MessageParam[] = [];
  const append = (role: 'user' | 'assistant', content: ContentBlockParam[]): void => {
    if (content.length === 0) return;
    const last = messages.at(-1);
    // Fresh arrays: the blocks are cached and shared between calls, the arrays around them are not.
    if (last?.role === role && Array.isArray(last.content)) last.content.push(...content);
    else messages.push({ role, content: [...content] });
  };
  for (const message of history) {
    switch (message.role) {
      case 'system':
        systemText.push(message.content.map((part) => part.text).join(''));
        break;
      case 'user':
      case 'tool':
        append('user', blocksOf(message));
        break;
      case 'assistant':
        append('assistant', blocksOf(message));
        break;
    }
  }
  for (const message of messages)
    if (message.role === 'user' && Array.isArray(message.content)) toolResultsFirst(message.content);
  return { systemText, messages };
}

/** Anthropic wants a user message's `tool_result` blocks before anything else in it. */
function toolResultsFirst(content: ContentBlockParam[]): void {
  const firstOther = content.findIndex((block) => block.type !== 'tool_result');
  if (firstOther < 0 || !content.some((block, index) => index > firstOther && block.type === 'tool_result')) return;
  const results = content.filter((block) => block.type === 'tool_result');
  const others = content.filter((block) => block.type !== 'tool_result');
  content.splice(0, content.length, ...results, ...others);
}

/** A message's blocks, converted once per message (see memoizeByMessage); never mutate them. */
const blocksOf = memoizeByMessage((message: Message): ContentBlockParam[] => {
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
});

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
  return [...thinking, ...rest];
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

import type { ToolResultImage } from './tool-result-image.js';

/** Who a message is from. Tool results travel in `tool` messages; providers map them to their own shape. */
export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/** Plain text. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * The model's reasoning. Providers need some of it back verbatim in later turns: Anthropic requires the
 * `signature` of thinking that precedes a tool use, and keeps redacted thinking as opaque `redactedData`;
 * OpenAI's Responses API carries encrypted reasoning in `signature` too.
 */
export interface ThinkingPart {
  type: 'thinking';
  /** The readable reasoning (empty for redacted thinking). */
  text: string;
  /** Provider signature or encrypted content that must be sent back unchanged. */
  signature?: string;
  /** Opaque data of reasoning the provider redacted. */
  redactedData?: string;
  /** Provider-specific fields an adapter needs to send the part back (e.g. a reasoning item id). */
  providerMetadata?: Record<string, unknown>;
}

/** A call the model made to a tool. */
export interface ToolCallPart {
  type: 'tool-call';
  /** The call's id; its result carries the same id. */
  toolCallId: string;
  /** The called tool's name. */
  toolName: string;
  /** The decoded arguments. */
  arguments: unknown;
  /** Provider-specific fields an adapter needs to send the call back. */
  providerMetadata?: Record<string, unknown>;
}

/** The result of a tool call, as the model sees it. */
export interface ToolResultPart {
  type: 'tool-result';
  /** The id of the call this answers. */
  toolCallId: string;
  /** The called tool's name. */
  toolName: string;
  /**
   * The result text. When the result has `images`, it describes them too (see `describeToolResultImage`):
   * it is all that text-only paths (OpenAI Chat Completions, the XML protocol) show.
   */
  content: string;
  /**
   * Images the tool returned, sent as images by providers that take them in tool results (Anthropic,
   * OpenAI Responses) and left out by the others, whose model sees `content` alone. Absent when none.
   */
  images?: readonly ToolResultImage[];
  /** True when the call failed (unknown tool, invalid arguments, thrown error, cancelled). */
  isError: boolean;
}

/** Any part of a message. */
export type MessagePart = TextPart | ThinkingPart | ToolCallPart | ToolResultPart;

/** A system instruction. */
export interface SystemMessage {
  role: 'system';
  content: TextPart[];
}

/** What the user (or the loop, on the user's behalf) said. */
export interface UserMessage {
  role: 'user';
  content: TextPart[];
}

/** What the model answered: text, reasoning and tool calls, in order. */
export interface AssistantMessage {
  role: 'assistant';
  content: Array<TextPart | ThinkingPart | ToolCallPart>;
}

/** Results of the tool calls of the assistant message before it. */
export interface ToolMessage {
  role: 'tool';
  content: ToolResultPart[];
}

/** One message of a conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A user message holding one text part. */
export function userMessage(text: string): UserMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

/** A system message holding one text part. */
export function systemMessage(text: string): SystemMessage {
  return { role: 'system', content: [{ type: 'text', text }] };
}

/** The concatenated text parts of a message (thinking, calls and results left out). */
export function messageText(message: Message): string {
  let text = '';
  for (const part of message.content) if (part.type === 'text') text += part.text;
  return text;
}

/** The tool calls of a message, in order. */
export function toolCallsOf(message: Message): ToolCallPart[] {
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

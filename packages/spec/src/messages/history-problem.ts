import { describeThrown } from '../errors/describe-thrown.js';
import type { Message, MessagePart } from './message.js';

/** Options of `findHistoryProblem`. */
export interface HistoryProblemOptions {
  /**
   * The index to start at. The messages before it must already have been found valid, ending with no call
   * waiting for its result (as a history is before every request).
   */
  from?: number;
}

/**
 * What makes a history one that no provider accepts, or undefined when it is sound: every tool call is
 * answered by exactly one result in the tool message(s) right after its assistant message, no result
 * answers a call that was not just made, no two calls share an id, and every message can be serialised.
 * Anthropic, OpenAI Chat and OpenAI Responses all reject a history that breaks one of these. System
 * messages are skipped: the agent leaves them out of the history it sends.
 *
 * The order of results within one step is not checked: each answers its call by id, and the providers
 * accept any order. Never throws.
 */
export function findHistoryProblem(
  messages: readonly Message[],
  options: HistoryProblemOptions = {},
): string | undefined {
  let open: Map<string, string> | undefined;
  for (let index = options.from ?? 0; index < messages.length; index++) {
    const message = messages[index];
    // Described only when something is wrong: this runs before every request.
    const where = () => `message ${index + 1} (${describeRole(message)})`;
    if (!isMessageShaped(message)) return `${where()} is not a message with a role and a content array`;
    // The agent leaves system messages out of a request's history, so they separate nothing.
    if (message.role === 'system') continue;
    const unserialisable = findUnserialisable(message);
    if (unserialisable) return `${where()} cannot be serialised: ${unserialisable}`;
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (!open?.delete(part.toolCallId)) {
          return `${where()} has a result for tool call "${part.toolCallId}", which no call just before it made`;
        }
      }
      continue;
    }
    if (open !== undefined && open.size > 0) return orphaned(open, where());
    open = undefined;
    if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type !== 'tool-call') continue;
        open ??= new Map();
        if (open.has(part.toolCallId)) return `${where()} has two tool calls with the id "${part.toolCallId}"`;
        open.set(part.toolCallId, part.toolName);
      }
    }
  }
  return open !== undefined && open.size > 0 ? orphaned(open, 'the end of the history') : undefined;
}

function describeRole(message: unknown): string {
  const role = typeof message === 'object' && message !== null ? (message as { role?: unknown }).role : undefined;
  return typeof role === 'string' ? role : 'no role';
}

function isMessageShaped(message: Message | undefined): message is Message {
  return typeof message === 'object' && message !== null && Array.isArray(message.content);
}

function orphaned(open: ReadonlyMap<string, string>, where: string): string {
  for (const [id, name] of open) return `tool call "${id}" (${name}) has no result before ${where}`;
  return `a tool call has no result before ${where}`;
}

/**
 * Deeper than anything agentloop stores (tool arguments stop at 64 levels), and shallow enough for every
 * provider's serialiser, whose recursion fails somewhere past a few thousand levels.
 */
const MAX_SERIALISED_DEPTH = 256;

/** Why a message cannot be serialised, or undefined when it can. */
function findUnserialisable(message: Message): string | undefined {
  // Text and results are strings, always serialisable; what else a part holds (arguments, provider
  // metadata) is walked. A walk rather than JSON.stringify: it builds no string, and it also finds nesting
  // that would serialise here but overflow the stack deeper inside an SDK.
  const parts: readonly MessagePart[] = message.content;
  for (const part of parts) {
    if (part.type === 'text' && typeof part.text === 'string') continue;
    if (part.type === 'tool-result' && typeof part.content === 'string') {
      // Images are strings too, but a provider sends them as they are: a malformed one fails the request.
      const problem = imagesProblem(part.images, part.toolCallId);
      if (problem) return problem;
      continue;
    }
    if (part.type === 'thinking' && part.providerMetadata === undefined && typeof part.text === 'string') continue;
    try {
      const problem = jsonProblem(part, 0);
      if (problem) return problem;
    } catch (error) {
      return describeThrown(error);
    }
  }
  return undefined;
}

/** What is wrong with a tool result's `images`, or undefined when they are absent or sound. */
function imagesProblem(images: unknown, toolCallId: string): string | undefined {
  if (images === undefined) return undefined;
  const where = `the images of the result for tool call "${toolCallId}"`;
  if (!Array.isArray(images)) return `${where} are not an array`;
  for (let index = 0; index < images.length; index++) {
    const image: unknown = images[index];
    const shaped =
      typeof image === 'object' &&
      image !== null &&
      typeof (image as { mediaType?: unknown }).mediaType === 'string' &&
      typeof (image as { data?: unknown }).data === 'string';
    if (!shaped) return `image ${index + 1} of ${where} is not { mediaType, data } with string values`;
  }
  return undefined;
}

/** What keeps `value` from being sent as JSON, or undefined. May throw (a getter, a Proxy). */
function jsonProblem(value: unknown, depth: number): string | undefined {
  if (typeof value === 'bigint') return 'it holds a bigint';
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_SERIALISED_DEPTH) return `it nests deeper than ${MAX_SERIALISED_DEPTH} levels, or refers to itself`;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    // What toJSON returns is what is sent; JSON.stringify knows how to call it.
    JSON.stringify(value);
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = jsonProblem(item, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const problem = jsonProblem((value as Record<string, unknown>)[key], depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

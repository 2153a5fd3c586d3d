import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { type ErrorSource, invalidResponse, isJsonObject, jsonKind } from '../errors/index.js';

/**
 * The non-streamed body as a Message, once the fields the reader relies on have the API's shape: an
 * object whose `content` is a list of blocks, each with a `type` (a `tool_use` also with its `id` and
 * `name`), and `usage` an object when present. Throws a ProviderError (`invalid_response`) that says which
 * field is wrong, instead of letting a TypeError from deep inside the reader stand for it.
 */
export function checkAnthropicMessage(body: unknown, source: ErrorSource): Message {
  if (!isJsonObject(body)) throw invalidResponse(source, `the body is ${jsonKind(body)}, not a message object`);
  const { content, usage } = body;
  if (!Array.isArray(content)) {
    throw invalidResponse(source, `its "content" is ${jsonKind(content)}, not a list of content blocks`);
  }
  content.forEach((block: unknown, index) => {
    if (!isJsonObject(block) || typeof block.type !== 'string') {
      throw invalidResponse(source, `its content block ${index} is ${jsonKind(block)} without a "type"`);
    }
    if (block.type === 'tool_use' && (typeof block.id !== 'string' || typeof block.name !== 'string')) {
      throw invalidResponse(source, `its tool_use block ${index} has no "id" or "name"`);
    }
  });
  if (usage !== undefined && usage !== null && !isJsonObject(usage)) {
    throw invalidResponse(source, `its "usage" is ${jsonKind(usage)}, not an object`);
  }
  return body as unknown as Message;
}

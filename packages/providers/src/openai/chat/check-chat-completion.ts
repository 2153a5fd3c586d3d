import { type ErrorSource, invalidResponse, isJsonObject, jsonKind } from '../../errors/index.js';
import type { WireChatCompletion } from './chat-completion-chunk.js';

/**
 * The non-streamed body as a WireChatCompletion, once the fields the reader relies on have the API's
 * shape: an object whose `choices` is a list of objects, each `message` an object (or null) whose
 * `tool_calls` is a list of objects (or null), and `usage` an object when present. Throws a ProviderError
 * (`invalid_response`) that says which field is wrong, instead of letting a TypeError stand for it.
 */
export function checkChatCompletion(body: unknown, source: ErrorSource): WireChatCompletion {
  if (!isJsonObject(body)) throw invalidResponse(source, `the body is ${jsonKind(body)}, not a chat completion object`);
  const { choices, usage } = body;
  if (!Array.isArray(choices)) throw invalidResponse(source, `its "choices" is ${jsonKind(choices)}, not a list`);
  choices.forEach((choice: unknown, index) => {
    if (!isJsonObject(choice))
      throw invalidResponse(source, `its choice ${index} is ${jsonKind(choice)}, not an object`);
    const { message } = choice;
    if (message === undefined || message === null) return;
    if (!isJsonObject(message)) {
      throw invalidResponse(source, `the "message" of choice ${index} is ${jsonKind(message)}, not an object`);
    }
    const toolCalls = message.tool_calls;
    if (toolCalls === undefined || toolCalls === null) return;
    if (!Array.isArray(toolCalls) || !toolCalls.every(isJsonObject)) {
      throw invalidResponse(
        source,
        `the "tool_calls" of choice ${index} is ${jsonKind(toolCalls)}, not a list of objects`,
      );
    }
  });
  if (usage !== undefined && usage !== null && !isJsonObject(usage)) {
    throw invalidResponse(source, `its "usage" is ${jsonKind(usage)}, not an object`);
  }
  return body as WireChatCompletion;
}

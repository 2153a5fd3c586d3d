import { type ErrorSource, invalidResponse, isJsonObject, jsonKind } from '../../errors/index.js';
import type { WireResponse } from './wire-response-event.js';

/**
 * The non-streamed body as a WireResponse, once the fields the reader relies on have the API's shape: an
 * object whose `output` is a list of items, each with a `type`, and `usage` an object when present. An
 * `output` of null is not an empty turn: a completed response always lists what the model produced.
 * Throws a ProviderError (`invalid_response`) that says which field is wrong.
 */
export function checkResponseBody(body: unknown, source: ErrorSource): WireResponse {
  if (!isJsonObject(body)) throw invalidResponse(source, `the body is ${jsonKind(body)}, not a response object`);
  const { output, usage } = body;
  if (!Array.isArray(output)) {
    throw invalidResponse(source, `its "output" is ${jsonKind(output)}, not a list of output items`);
  }
  output.forEach((item: unknown, index) => {
    if (!isJsonObject(item) || typeof item.type !== 'string') {
      throw invalidResponse(source, `its output item ${index} is ${jsonKind(item)} without a "type"`);
    }
  });
  if (usage !== undefined && usage !== null && !isJsonObject(usage)) {
    throw invalidResponse(source, `its "usage" is ${jsonKind(usage)}, not an object`);
  }
  return body as WireResponse;
}

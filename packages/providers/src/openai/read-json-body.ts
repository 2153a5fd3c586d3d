import { type ErrorSource, invalidResponse } from '../errors/index.js';

/**
 * The JSON of a successful, non-streamed response. Throws a ProviderError (`invalid_response`) when the
 * body is not JSON, saying what it began with, since the server behind the base URL does not speak the API.
 */
export async function readJsonBody(response: Response, source: ErrorSource): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const start = text.trim().slice(0, 60);
    throw invalidResponse(source, start === '' ? 'the body is empty, not JSON' : `the body is not JSON: "${start}"`);
  }
}

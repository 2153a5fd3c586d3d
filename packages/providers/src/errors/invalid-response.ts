import { ProviderError } from '@agentloop/spec';
import { capitalized, type ErrorSource, providerLabel } from './provider-label.js';

/**
 * The error for a response body that is not what the API sends (a field missing or of another type):
 * code `invalid_response`, not retried, since the server that sent it will most likely send it again.
 * `what` says what was malformed, e.g. `its "output" is null, not a list of output items`.
 */
export function invalidResponse(source: string | ErrorSource, what: string): ProviderError {
  const provider = typeof source === 'string' ? source : source.provider;
  return new ProviderError(
    `${capitalized(providerLabel(source))} sent a malformed response: ${what}. Check that the base URL points ` +
      'at the API the provider speaks.',
    { code: 'invalid_response', provider },
  );
}

/** How a message names a JSON value's kind: `null`, `a string`, `a list`, `an object`, `missing`. */
export function jsonKind(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** True for a JSON object (not null, not a list). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import { AgentloopError } from '@agentloop/spec';
import { providerErrorFromResponse } from './provider-error-from-response.js';
import { providerErrorFromThrown, providerErrorFromTransport } from './provider-error-from-transport.js';
import type { ErrorSource } from './provider-label.js';
import type { HeaderLookup } from './retry-after.js';

/** What an API error of a Stainless-generated SDK (Anthropic's and OpenAI's are) carries. */
interface SdkApiError {
  status: number | undefined;
  headers: HeaderLookup | undefined;
  error: unknown;
  message: string;
}

/**
 * The error classes of a Stainless-generated SDK, passed in by the vendor's module, so that this module
 * loads no SDK and one vendor's never loads another's.
 */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => SdkApiError;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

/**
 * Maps what a call through such an SDK threw to an AgentloopError: an AgentloopError as it is, API errors
 * by status, body and headers, connection errors as `network` / `timeout` (the timeout first: it is a
 * connection error too), and anything else as providerErrorFromThrown says (a broken body as
 * `stream_broken`).
 */
export function providerErrorFromSdk(
  error: unknown,
  classes: SdkErrorClasses,
  source: string | ErrorSource,
  offeredTools: boolean,
): AgentloopError {
  if (AgentloopError.isInstance(error)) return error;
  if (error instanceof classes.APIConnectionTimeoutError)
    return providerErrorFromTransport(source, error, 'connect', true);
  if (error instanceof classes.APIConnectionError) return providerErrorFromTransport(source, error, 'connect');
  if (error instanceof classes.APIError) {
    return providerErrorFromResponse({
      ...(typeof source === 'string' ? { provider: source } : source),
      status: error.status,
      headers: error.headers,
      body: error.error,
      fallbackMessage: error.message,
      offeredTools,
      cause: error,
    });
  }
  return providerErrorFromThrown(source, error);
}

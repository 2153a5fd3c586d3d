import { AgentloopError } from '@agentloop/spec';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import {
  type ErrorSource,
  providerErrorFromResponse,
  providerErrorFromThrown,
  providerErrorFromTransport,
} from '../errors/index.js';

/**
 * Maps what an Anthropic call threw to an AgentloopError: API errors by status, body and headers (an
 * `overloaded_error` event inside a stream included), connection errors as `network` / `timeout`, and
 * a broken body (a reset socket, a malformed event) as `stream_broken`, and the SDK's own errors
 * (missing credentials, argument checks) as `unknown`, not retried. `source` adds the model and base URL
 * the message names.
 */
export function toAnthropicError(
  error: unknown,
  offeredTools: boolean,
  source: ErrorSource = { provider: 'anthropic' },
): AgentloopError {
  if (AgentloopError.isInstance(error)) return error;
  if (error instanceof APIConnectionTimeoutError) return providerErrorFromTransport(source, error, 'connect', true);
  if (error instanceof APIConnectionError) return providerErrorFromTransport(source, error, 'connect');
  if (error instanceof APIError) {
    return providerErrorFromResponse({
      ...source,
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

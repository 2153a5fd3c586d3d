import { AgentloopError } from '@agentloop/spec';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import { providerErrorFromResponse, providerErrorFromThrown, providerErrorFromTransport } from '../errors/index.js';

/**
 * Maps what an Anthropic call threw to an AgentloopError: API errors by status, body and headers (an
 * `overloaded_error` event inside a stream included), connection errors as `network` / `timeout`, and
 * a broken body (a reset socket, a malformed event) as `stream_broken`, and the SDK's own errors
 * (missing credentials, argument checks) as `unknown`, not retried.
 */
export function toAnthropicError(error: unknown, offeredTools: boolean): AgentloopError {
  if (AgentloopError.isInstance(error)) return error;
  if (error instanceof APIConnectionTimeoutError)
    return providerErrorFromTransport('anthropic', error, 'connect', true);
  if (error instanceof APIConnectionError) return providerErrorFromTransport('anthropic', error, 'connect');
  if (error instanceof APIError) {
    return providerErrorFromResponse({
      provider: 'anthropic',
      status: error.status,
      headers: error.headers,
      body: error.error,
      fallbackMessage: error.message,
      offeredTools,
      cause: error,
    });
  }
  return providerErrorFromThrown('anthropic', error);
}

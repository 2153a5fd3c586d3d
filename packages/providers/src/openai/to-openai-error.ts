import { AgentloopError } from '@agentloop/spec';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { providerErrorFromResponse, providerErrorFromThrown, providerErrorFromTransport } from '../errors/index.js';

/**
 * Maps what an OpenAI SDK call threw to an AgentloopError: API errors by status, body and headers (an
 * `error` event inside a stream included), connection errors as `network` / `timeout`, anything thrown
 * while the body streamed as `stream_broken`, and a server's "model does not support tools" as
 * `tools_unsupported`.
 */
export function toOpenAIError(error: unknown, provider: string, offeredTools: boolean): AgentloopError {
  if (AgentloopError.isInstance(error)) return error;
  if (error instanceof APIConnectionTimeoutError) return providerErrorFromTransport(provider, error, 'connect', true);
  if (error instanceof APIConnectionError) return providerErrorFromTransport(provider, error, 'connect');
  if (error instanceof APIError) {
    return providerErrorFromResponse({
      provider,
      status: error.status,
      headers: error.headers,
      body: error.error,
      fallbackMessage: error.message,
      offeredTools,
      cause: error,
    });
  }
  return providerErrorFromThrown(provider, error);
}

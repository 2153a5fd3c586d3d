import { AgentloopError } from '@agentloop/spec';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import {
  type ErrorSource,
  providerErrorFromResponse,
  providerErrorFromThrown,
  providerErrorFromTransport,
} from '../errors/index.js';

/**
 * Maps what an OpenAI SDK call threw to an AgentloopError: API errors by status, body and headers (an
 * `error` event inside a stream included), connection errors as `network` / `timeout`, anything thrown
 * while the body streamed as `stream_broken`, and a server's "model does not support tools" as
 * `tools_unsupported`. `source` (the provider's id, or with the model and base URL) names where the request
 * went in the message.
 */
export function toOpenAIError(error: unknown, source: string | ErrorSource, offeredTools: boolean): AgentloopError {
  if (AgentloopError.isInstance(error)) return error;
  if (error instanceof APIConnectionTimeoutError) return providerErrorFromTransport(source, error, 'connect', true);
  if (error instanceof APIConnectionError) return providerErrorFromTransport(source, error, 'connect');
  if (error instanceof APIError) {
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

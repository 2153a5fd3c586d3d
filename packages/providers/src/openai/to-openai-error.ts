import type { AgentloopError } from '@agentloop/spec';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { type ErrorSource, providerErrorFromSdk, type SdkErrorClasses } from '../errors/index.js';

const OPENAI_ERRORS: SdkErrorClasses = { APIError, APIConnectionError, APIConnectionTimeoutError };

/**
 * Maps what an OpenAI SDK call threw to an AgentloopError: API errors by status, body and headers (an
 * `error` event inside a stream included), connection errors as `network` / `timeout`, anything thrown
 * while the body streamed as `stream_broken`, and a server's "model does not support tools" as
 * `tools_unsupported`. `source` (the provider's id, or with the model and base URL) names where the request
 * went in the message.
 */
export function toOpenAIError(error: unknown, source: string | ErrorSource, offeredTools: boolean): AgentloopError {
  return providerErrorFromSdk(error, OPENAI_ERRORS, source, offeredTools);
}

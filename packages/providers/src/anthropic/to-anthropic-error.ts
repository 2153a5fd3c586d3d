import type { AgentloopError } from '@agentloop/spec';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import { type ErrorSource, providerErrorFromSdk, type SdkErrorClasses } from '../errors/index.js';

const ANTHROPIC_ERRORS: SdkErrorClasses = { APIError, APIConnectionError, APIConnectionTimeoutError };

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
  return providerErrorFromSdk(error, ANTHROPIC_ERRORS, source, offeredTools);
}

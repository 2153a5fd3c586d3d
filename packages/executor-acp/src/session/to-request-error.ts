import { RequestError } from '@agentclientprotocol/sdk';
import { AgentloopError } from '@agentloop/core';

/** JSON-RPC's code for an internal error: what a failed run is, unless it is a rejected key. */
const INTERNAL_ERROR = -32603;
/** ACP's code for "authentication required": the provider rejected the key. */
const AUTH_REQUIRED = -32000;

/**
 * A failure as a JSON-RPC error: the typed error's message, and in `data` its stable `code` (the
 * `ProviderErrorCode` or the agent's own) with what a client acts on (`statusCode`, `retryable`,
 * `retryAfterMs`). A provider's `authentication` failure is ACP's `-32000` (authentication required),
 * anything else `-32603`. A RequestError passes through as it is.
 */
export function toRequestError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  if (AgentloopError.isInstance(error)) {
    const data = {
      code: error.code,
      retryable: error.retryable,
      ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    };
    return new RequestError(error.code === 'authentication' ? AUTH_REQUIRED : INTERNAL_ERROR, error.message, data);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new RequestError(INTERNAL_ERROR, message, { code: 'internal' });
}

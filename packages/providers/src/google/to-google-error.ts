import { AgentloopError, ProviderError } from '@agentloop/spec';
import { ApiError } from '@google/genai';
import {
  type ErrorSource,
  isTransportFailure,
  providerErrorFromResponse,
  providerErrorFromThrown,
  providerErrorFromTransport,
} from '../errors/index.js';

/** What the Gemini API says when the conversation does not fit the model's window. */
const CONTEXT_LENGTH = /input token count.*exceeds the maximum number of tokens/i;
/** What it says, with a 400, for a key it does not know. */
const INVALID_KEY = /API key not valid|API_KEY_INVALID/i;
/** What the SDK throws when a streamed body breaks off or is not JSON. */
const BROKEN_STREAM = /^(?:Incomplete JSON segment at the end|exception parsing stream chunk|Response body is empty)/;

interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: unknown[];
}

/**
 * Maps what a Gemini call threw to an AgentloopError. The SDK's `ApiError` carries the status and the body
 * as JSON text, an error inside a stream included: it is classified by status (429 and 5xx retried, honouring
 * the body's `RetryInfo` delay, since the SDK keeps no headers), a conversation too long for the window as
 * `context_length`, and an unknown key (which the API answers with a 400) as `authentication`. A body that
 * breaks off or is not JSON is `stream_broken`, retried; connection failures and the rest go the way of
 * every provider's (see providerErrorFromThrown).
 */
export function toGoogleError(error: unknown, offeredTools: boolean, source: ErrorSource): AgentloopError {
  if (AgentloopError.isInstance(error)) return error;
  if (error instanceof ApiError) return fromApiError(error, offeredTools, source);
  if (error instanceof SyntaxError || (error instanceof Error && BROKEN_STREAM.test(error.message))) {
    return providerErrorFromTransport(source, error, 'stream');
  }
  return providerErrorFromThrown(source, error);
}

/**
 * What a failure before the response began (the SDK throws fetch's own error, unwrapped) becomes: a
 * connection failure in the words of every provider (`Cannot reach …`), retried or not by its cause (a
 * host that does not resolve is not); anything else is left to toGoogleError.
 */
export function toGoogleConnectError(error: unknown, source: ErrorSource): unknown {
  return isTransportFailure(error) ? providerErrorFromTransport(source, error, 'connect') : error;
}

function fromApiError(error: ApiError, offeredTools: boolean, source: ErrorSource): ProviderError {
  const body = errorBody(error.message);
  const message = body?.message ?? error.message;
  const type = CONTEXT_LENGTH.test(message) ? 'context_length_exceeded' : body?.status;
  const delayMs = retryDelayMs(body?.details);
  const mapped = providerErrorFromResponse({
    ...source,
    status: error.status,
    headers: delayMs === undefined ? undefined : new Headers({ 'retry-after-ms': String(delayMs) }),
    body: { error: { type, message } },
    fallbackMessage: error.message,
    offeredTools,
    cause: error,
  });
  if (error.status !== 400 || !INVALID_KEY.test(`${message} ${JSON.stringify(body?.details ?? [])}`)) return mapped;
  return new ProviderError(`${mapped.message} (set GEMINI_API_KEY or pass the apiKey option)`, {
    code: 'authentication',
    provider: source.provider,
    statusCode: error.status,
    cause: error,
  });
}

/** The `error` object of the body the SDK put in its message as JSON (after `got status: …. ` in a stream). */
function errorBody(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf('{');
  if (start === -1) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as { error?: unknown };
    return typeof parsed.error === 'object' && parsed.error !== null ? (parsed.error as GoogleErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

/** The wait a `google.rpc.RetryInfo` detail asks for (`"34.4s"`), in milliseconds. */
function retryDelayMs(details: unknown[] | undefined): number | undefined {
  for (const detail of details ?? []) {
    const { '@type': type, retryDelay } = (detail ?? {}) as { '@type'?: unknown; retryDelay?: unknown };
    if (typeof type !== 'string' || !type.endsWith('google.rpc.RetryInfo') || typeof retryDelay !== 'string') continue;
    const seconds = Number.parseFloat(retryDelay);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1_000);
  }
  return undefined;
}

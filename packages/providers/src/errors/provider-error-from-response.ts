import { ProviderError, type ProviderErrorCode } from '@agentloop/spec';
import { readApiErrorBody } from './api-error-body.js';
import { type ErrorSource, providerLabel } from './provider-label.js';
import { type HeaderLookup, retryAfterMs, shouldRetryHeader } from './retry-after.js';

/** An error answer of a model API, as the SDKs report it, and where the request went (see ErrorSource). */
export interface ApiErrorResponse extends ErrorSource {
  /** HTTP status; undefined for an error event inside a stream. */
  status: number | undefined;
  headers: HeaderLookup | undefined;
  /** The error body (any vendor shape, see readApiErrorBody). */
  body: unknown;
  /** The SDK's message, used when the body has none. */
  fallbackMessage?: string;
  /** True when the request offered tools: a tool-support complaint then means the model has none. */
  offeredTools: boolean;
  /** The underlying SDK error. */
  cause?: unknown;
}

// What servers say when the conversation does not fit: Anthropic ("prompt is too long", "exceed context
// limit"), OpenAI ("maximum context length", `context_length_exceeded`, "exceeds the context window"),
// vLLM, llama.cpp ("exceeds the available context size"), Ollama.
const CONTEXT_LENGTH =
  /prompt is too long|maximum context length|context[_ ]length[_ ]exceeded|exceeds? (?:the )?(?:\w+ )*context|context (?:window|size|limit) (?:exceeded|is too)|input is too long|too many tokens/i;

// What OpenAI-compatible servers say for a model without function calling: Ollama ("does not support
// tools"), vLLM ("--enable-auto-tool-choice"), llama.cpp ("--jinja"), OpenRouter ("support tool use").
const TOOLS_UNSUPPORTED =
  /does not support (?:tools|tool[_ ]?(?:use|call)|function[_ ]call)|tools? (?:is|are) not supported|(?:tool|function) call(?:ing|s)? (?:is |are )?not (?:supported|enabled)|support tool use|enable-auto-tool-choice|--jinja/i;

const BY_TYPE: Readonly<Record<string, ProviderErrorCode>> = {
  overloaded_error: 'overloaded',
  rate_limit_error: 'rate_limit',
  rate_limit_exceeded: 'rate_limit',
  insufficient_quota: 'rate_limit',
  authentication_error: 'authentication',
  invalid_api_key: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not_found',
  model_not_found: 'not_found',
  api_error: 'server_error',
  server_error: 'server_error',
  timeout_error: 'timeout',
  request_too_large: 'context_length',
  context_length_exceeded: 'context_length',
  invalid_request_error: 'invalid_request',
  invalid_prompt: 'invalid_request',
};

function codeFromStatus(status: number | undefined): ProviderErrorCode {
  if (status === undefined) return 'server_error';
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 413) return 'context_length';
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status >= 500) return 'server_error';
  return status === 409 ? 'server_error' : 'invalid_request';
}

/**
 * Classifies an API error answer by what to do next, with the server's message, status, retry-after
 * and `x-should-retry` verdict. `insufficient_quota` (a 429 that waiting does not fix) is not retried.
 *
 * The message is `<what and who>: <the server's words>`: `Anthropic API error (401 authentication_error): …`,
 * `Error from the server at http://127.0.0.1:11434/v1 (404) for model "llama3": …`. The part before the
 * first ": " never holds one, so a program can take the server's words from after it.
 */
export function providerErrorFromResponse(response: ApiErrorResponse): ProviderError {
  const { status, headers } = response;
  const body = readApiErrorBody(response.body);
  const serverMessage = body.message ?? response.fallbackMessage ?? 'no error message';
  const label = [status, body.type ?? body.code].filter((part) => part !== undefined).join(' ');
  const byType = BY_TYPE[body.code ?? ''] ?? BY_TYPE[body.type ?? ''];
  let code: ProviderErrorCode;
  if (byType === 'context_length' || status === 413 || (isClientError(status) && CONTEXT_LENGTH.test(serverMessage))) {
    code = 'context_length';
  } else if (
    response.offeredTools &&
    (isClientError(status) || status === 500) &&
    TOOLS_UNSUPPORTED.test(serverMessage)
  ) {
    code = 'tools_unsupported';
  } else if (status === undefined) {
    code = byType ?? 'server_error';
  } else {
    // The status decides, except that Anthropic reports overload under more than one status.
    code = byType === 'overloaded' ? 'overloaded' : codeFromStatus(status);
  }
  const quotaSpent = body.code === 'insufficient_quota' || body.type === 'insufficient_quota';
  return new ProviderError(`${lead(response, label, code)}: ${serverMessage}${hint(response, code)}`, {
    code,
    provider: response.provider,
    cause: response.cause,
    statusCode: status,
    retryAfterMs: retryAfterMs(headers),
    retryable: quotaSpent ? false : code === 'context_length' ? false : shouldRetryHeader(headers),
  });
}

/** What failed and where: the vendor's API or the server at its URL, the status, and for a 404 the model. */
function lead(response: ApiErrorResponse, label: string, code: ProviderErrorCode): string {
  const who = providerLabel(response);
  const status = label ? ` (${label})` : '';
  const model = code === 'not_found' && response.model ? ` for model "${response.model}"` : '';
  return who.startsWith('the ') ? `Error from ${who}${status}${model}` : `${who} API error${status}${model}`;
}

/** What to do about it, where the server's words may not say: a model without tools, a key never sent. */
function hint(response: ApiErrorResponse, code: ProviderErrorCode): string {
  if (code === 'tools_unsupported') return ' (the model does not support native tools: use the XML tool protocol)';
  if (code === 'authentication' && response.keyless) {
    return ` (${providerLabel(response)} wants an API key and none was sent: pass apiKey or set OPENAI_API_KEY)`;
  }
  return '';
}

function isClientError(status: number | undefined): boolean {
  return status === undefined || (status >= 400 && status < 500);
}

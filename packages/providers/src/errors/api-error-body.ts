/** The fields of an API error body that classify it, whichever vendor's shape it came in. */
export interface ApiErrorBody {
  /** `rate_limit_error`, `invalid_request_error`, `insufficient_quota`, … */
  type: string | undefined;
  /** OpenAI's `code`, e.g. `context_length_exceeded`. */
  code: string | undefined;
  /** The server's human-readable message. */
  message: string | undefined;
}

/**
 * Reads an error body: Anthropic's `{type: 'error', error: {type, message}}`, OpenAI's
 * `{error: {message, type, code}}` or its inner object (which the OpenAI SDK keeps), a Responses
 * `response.failed` error `{code, message}`, or a plain string.
 */
export function readApiErrorBody(body: unknown): ApiErrorBody {
  if (typeof body === 'string') return { type: undefined, code: undefined, message: body || undefined };
  if (!isRecord(body)) return { type: undefined, code: undefined, message: undefined };
  const inner = isRecord(body.error) ? body.error : body;
  return {
    type: stringField(inner, 'type') ?? (body.type === 'error' ? undefined : stringField(body, 'type')),
    code: stringField(inner, 'code') ?? stringField(body, 'code'),
    message: stringField(inner, 'message') ?? stringField(body, 'message') ?? stringField(body, 'detail'),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

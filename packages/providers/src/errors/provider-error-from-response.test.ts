import { describe, expect, it } from 'vitest';
import { type ApiErrorResponse, providerErrorFromResponse } from './provider-error-from-response.js';

const classify = (response: Partial<ApiErrorResponse>) =>
  providerErrorFromResponse({
    provider: 'test',
    status: 400,
    headers: undefined,
    body: undefined,
    offeredTools: false,
    ...response,
  });

describe('providerErrorFromResponse', () => {
  it('classifies by status what to do next', () => {
    const cases: Array<[number, string, string]> = [
      [400, 'invalid_request', 'stop'],
      [401, 'authentication', 'stop'],
      [403, 'permission', 'stop'],
      [404, 'not_found', 'stop'],
      [408, 'timeout', 'retry'],
      [413, 'context_length', 'compact'],
      [429, 'rate_limit', 'retry'],
      [500, 'server_error', 'retry'],
      [503, 'server_error', 'retry'],
      [529, 'overloaded', 'retry'],
    ];
    for (const [status, code, action] of cases)
      expect(classify({ status }), String(status)).toMatchObject({ code, action, statusCode: status });
  });

  it("follows the server's x-should-retry", () => {
    expect(classify({ status: 500, headers: new Headers({ 'x-should-retry': 'false' }) }).retryable).toBe(false);
    expect(classify({ status: 409, headers: new Headers({ 'x-should-retry': 'true' }) }).retryable).toBe(true);
  });

  it('classifies an error event inside a stream by its type', () => {
    const overloaded = classify({
      status: undefined,
      body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    expect(overloaded).toMatchObject({
      code: 'overloaded',
      retryable: true,
      message: 'test API error (overloaded_error): Overloaded',
    });
    expect(classify({ status: undefined, body: { code: 'server_error', message: 'boom' } }).code).toBe('server_error');
  });

  it('does not retry a spent quota although it is a 429', () => {
    expect(
      classify({
        status: 429,
        body: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' },
      }),
    ).toMatchObject({
      code: 'rate_limit',
      retryable: false,
    });
  });

  it('recognises context-length messages of several servers', () => {
    const messages = [
      'prompt is too long: 208310 tokens > 200000 maximum',
      'input length and `max_tokens` exceed context limit: 198000 + 21333 > 200000, decrease input length or `max_tokens` and try again',
      "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens",
      'Your input exceeds the context window of this model. Please adjust your input and try again.',
      'the request exceeds the available context size, try increasing it',
    ];
    for (const message of messages)
      expect(classify({ body: { error: { message } } }).code, message).toBe('context_length');
  });

  it('reports tools_unsupported only when the request offered tools', () => {
    const body = { error: { message: 'registry.ollama.ai/library/gemma2:2b does not support tools' } };
    expect(classify({ body, offeredTools: true }).code).toBe('tools_unsupported');
    expect(classify({ body, offeredTools: false }).code).toBe('invalid_request');
  });

  it('falls back to the SDK message when the body has none', () => {
    expect(classify({ status: 502, body: undefined, fallbackMessage: '502 Bad Gateway' }).message).toBe(
      'test API error (502): 502 Bad Gateway',
    );
  });
});

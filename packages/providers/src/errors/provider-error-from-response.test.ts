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

  it("names the vendor properly, or a server other than the vendor's by its URL", () => {
    expect(classify({ provider: 'openai', status: 403, body: { error: { message: 'no access' } } }).message).toBe(
      'OpenAI API error (403): no access',
    );
    expect(classify({ provider: 'anthropic', status: 500 }).message).toBe(
      'Anthropic API error (500): no error message',
    );
    expect(classify({ provider: 'anthropic', baseURL: 'https://api.anthropic.com', status: 529 }).message).toMatch(
      /^Anthropic API error \(529\)/,
    );
    expect(
      classify({ provider: 'openai-compatible', baseURL: 'http://me:pw@127.0.0.1:11434/v1?key=k', status: 500 })
        .message,
    ).toBe('Error from the server at http://127.0.0.1:11434/v1 (500): no error message');
  });

  it('names the model of a 404', () => {
    const error = classify({
      provider: 'openai-compatible',
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'llama3',
      status: 404,
      body: { error: { message: 'model "llama3" not found, try pulling it first', type: 'not_found_error' } },
    });
    expect(error).toMatchObject({ code: 'not_found', retryable: false });
    expect(error.message).toBe(
      'Error from the server at http://127.0.0.1:11434/v1 (404 not_found_error) for model "llama3": model "llama3" not found, try pulling it first',
    );
    expect(classify({ provider: 'openai', model: 'gpt-9', status: 404 }).message).toMatch(
      /^OpenAI API error \(404\) for model "gpt-9": /,
    );
  });

  it('says how to give a key when a server answers 401 to a request sent without one', () => {
    const keyless = { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:8000/v1', status: 401 };
    expect(classify({ ...keyless, keyless: true, body: { error: { message: 'Unauthorized' } } }).message).toBe(
      'Error from the server at http://127.0.0.1:8000/v1 (401): Unauthorized (the server at http://127.0.0.1:8000/v1 wants an API key and none was sent: pass apiKey or set OPENAI_API_KEY)',
    );
    expect(classify({ ...keyless, body: { error: { message: 'Unauthorized' } } }).message).toBe(
      'Error from the server at http://127.0.0.1:8000/v1 (401): Unauthorized',
    );
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

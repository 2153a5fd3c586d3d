import { AgentloopError, ProviderError } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { describeError, describeErrorDetails, firstSentence } from './describe-error.js';

const providerError = (
  code: ConstructorParameters<typeof ProviderError>[1]['code'],
  message = 'failed',
  statusCode?: number,
) => new ProviderError(message, { code, provider: 'openai', ...(statusCode ? { statusCode } : {}) });

describe('describeError', () => {
  it('names the server that cannot be reached and the system error', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const error = new ProviderError('openai-compatible: could not reach the API', {
      code: 'network',
      provider: 'openai',
      cause: new TypeError('fetch failed', { cause: refused }),
    });
    expect(describeError(error, { baseURL: 'http://127.0.0.1:9/v1' })).toBe(
      'Cannot reach the server at http://127.0.0.1:9/v1 (ECONNREFUSED). Is the server running and the URL right?',
    );
  });

  it('redacts the user-info of the server URL and of URLs in the cause', () => {
    const refused = new TypeError(
      'Request cannot be constructed from a URL that includes credentials: http://user:password@host/v1/chat/completions',
    );
    const error = new ProviderError('openai-compatible: could not reach the API', {
      code: 'network',
      provider: 'openai',
      cause: new TypeError('fetch failed', { cause: refused }),
    });
    expect(describeError(error, { baseURL: 'http://user:password@host/v1' })).toBe(
      'Cannot reach the server at http://***@host/v1 (Request cannot be constructed from a URL that includes credentials: http://***@host/v1/chat/completions). Is the server running and the URL right?',
    );
    expect(describeErrorDetails(error).filter((line) => line.includes('password'))).toEqual([]);
    expect(describeErrorDetails(error)).toContain(
      'caused by: TypeError: Request cannot be constructed from a URL that includes credentials: http://***@host/v1/chat/completions',
    );
  });

  it("strips a server's control sequences from the line and the details", () => {
    const error = providerError('invalid_request', 'bad\x1b]52;c;eA==\x07 \x9b2Jrequest\u202e', 400);
    expect(describeError(error)).toBe('bad request (invalid_request)');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
    expect(describeErrorDetails(error).join('\n')).not.toMatch(/[\x1b\x80-\x9f\u202e]/);
  });

  it('names where a rejected key came from, and the vendor by its name', () => {
    expect(describeError(providerError('authentication', 'bad key', 401), { apiKeySource: 'OPENAI_API_KEY' })).toBe(
      'OpenAI rejected the API key (HTTP 401): check OPENAI_API_KEY.',
    );
    expect(describeError(providerError('permission', 'no', 403), { providerName: 'openai' })).toBe(
      'OpenAI refused the request (HTTP 403): the API key may lack access to this model.',
    );
    const anthropic = new ProviderError('x', { code: 'rate_limit', provider: 'anthropic', statusCode: 429 });
    expect(describeError(anthropic, { providerName: 'anthropic' })).toBe(
      'Anthropic is rate-limiting requests (HTTP 429); try again later.',
    );
  });

  it('names a compatible server it knows no URL of as such, not by its id', () => {
    const error = new ProviderError('x', { code: 'rate_limit', provider: 'openai-compatible', statusCode: 429 });
    expect(describeError(error)).toBe(
      'The OpenAI-compatible server is rate-limiting requests (HTTP 429); try again later.',
    );
  });

  it('names a server other than the vendor by its URL', () => {
    const context = { providerName: 'openai', baseURL: 'http://127.0.0.1:11434/v1', apiKeySource: 'OPENAI_API_KEY' };
    expect(describeError(providerError('permission', 'no', 403), context)).toBe(
      'The server at http://127.0.0.1:11434/v1 refused the request (HTTP 403): the API key may lack access to this model.',
    );
  });

  it('says a server that got no key wants one, and how to give it, rather than to check a key', () => {
    const error = new ProviderError('Error from the server at http://127.0.0.1:8000/v1 (401): Unauthorized', {
      code: 'authentication',
      provider: 'openai-compatible',
      statusCode: 401,
    });
    expect(describeError(error, { providerName: 'local', baseURL: 'http://127.0.0.1:8000/v1' })).toBe(
      'The server at http://127.0.0.1:8000/v1 wants an API key (HTTP 401): set OPENAI_API_KEY, or api_key in [providers.local] of the user configuration.',
    );
  });

  it("names the model of a 404, with the server's own words", () => {
    const error = providerError(
      'not_found',
      'OpenAI API error (404 model_not_found) for model "gpt-9": The model `gpt-9` does not exist.',
      404,
    );
    expect(describeError(error, { providerName: 'openai', model: 'gpt-9' })).toBe(
      'OpenAI does not know the model "gpt-9" (HTTP 404): The model `gpt-9` does not exist.',
    );
  });

  it("shows a provider's one-sentence connection failure as it is, asking to check only what was retried", () => {
    const notFound = new ProviderError(
      'Cannot reach the server at http://gpu.invalid/v1: the host gpu.invalid is not found (ENOTFOUND); check the URL',
      { code: 'network', provider: 'openai-compatible', retryable: false },
    );
    expect(describeError(notFound, { baseURL: 'http://gpu.invalid/v1' })).toBe(
      'Cannot reach the server at http://gpu.invalid/v1: the host gpu.invalid is not found (ENOTFOUND); check the URL.',
    );
    const refused = new ProviderError(
      'Cannot reach the server at http://127.0.0.1:9/v1: nothing is listening at 127.0.0.1:9; is the local server running?',
      { code: 'network', provider: 'openai-compatible', retryable: false },
    );
    expect(describeError(refused)).toBe(
      'Cannot reach the server at http://127.0.0.1:9/v1: nothing is listening at 127.0.0.1:9; is the local server running?',
    );
    const reset = new ProviderError('Cannot reach OpenAI: read ECONNRESET', { code: 'network', provider: 'openai' });
    expect(describeError(reset)).toBe('Cannot reach OpenAI: read ECONNRESET. Is the server running and the URL right?');
  });

  it('advises what works in each mode when the conversation no longer fits', () => {
    const error = providerError('context_length', 'prompt is too long', 400);
    expect(describeError(error, { mode: 'interactive' })).toBe(
      "The conversation is too long for the model's context window; /clear starts a new one, or /model switches to a model with a larger window.",
    );
    expect(describeError(error, { mode: 'run' })).toBe(
      "The conversation is too long for the model's context window: give a shorter task, or a model with a larger window (--model).",
    );
    expect(describeError(error, { mode: 'run' })).not.toContain('/clear');
  });

  it('keeps only the first line of a message and adds the code', () => {
    expect(describeError(new AgentloopError('Something broke.\n  at stack', { code: 'broken' }))).toBe(
      'Something broke (broken)',
    );
  });

  it('ends a sentence once, whatever punctuation the server ended it with', () => {
    expect(firstSentence('Sorry about that!')).toBe('Sorry about that');
    expect(`${firstSentence('openai: Overloaded.')}. Retrying`).toBe('Overloaded. Retrying');
    expect(describeError(new AgentloopError('Try again?', { code: 'odd' }))).toBe('Try again (odd)');
  });

  it('describes a thrown non-error', () => {
    expect(describeError('just a string')).toBe('just a string');
  });
});

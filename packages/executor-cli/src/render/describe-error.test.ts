import { AgentloopError, ProviderError } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { describeError, describeErrorDetails } from './describe-error.js';

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
      'Cannot reach http://127.0.0.1:9/v1 (ECONNREFUSED). Is the server running and the URL right?',
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
      'Cannot reach http://***@host/v1 (Request cannot be constructed from a URL that includes credentials: http://***@host/v1/chat/completions). Is the server running and the URL right?',
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

  it('names where a rejected key came from', () => {
    expect(describeError(providerError('authentication', 'bad key', 401), { apiKeySource: 'OPENAI_API_KEY' })).toBe(
      'The API key was rejected by openai (HTTP 401). Check OPENAI_API_KEY.',
    );
  });

  it('says an unknown model is unknown', () => {
    expect(describeError(providerError('not_found', 'The model `gpt-9` does not exist.', 404))).toBe(
      'Openai does not know this model or endpoint (HTTP 404): The model `gpt-9` does not exist.',
    );
  });

  it('keeps only the first line of a message and adds the code', () => {
    expect(describeError(new AgentloopError('Something broke.\n  at stack', { code: 'broken' }))).toBe(
      'Something broke (broken)',
    );
  });

  it('describes a thrown non-error', () => {
    expect(describeError('just a string')).toBe('just a string');
  });
});

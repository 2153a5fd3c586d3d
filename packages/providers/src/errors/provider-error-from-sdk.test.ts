import { AgentloopError, ProviderError } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { providerErrorFromSdk, type SdkErrorClasses } from './provider-error-from-sdk.js';

// Error classes shaped as a Stainless-generated SDK's: the timeout is a kind of connection error.
class APIError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly error: unknown,
    message: string,
    readonly headers: Headers | undefined,
  ) {
    super(message);
  }
}
class APIConnectionError extends Error {}
class APIConnectionTimeoutError extends APIConnectionError {}
const SDK: SdkErrorClasses = { APIError, APIConnectionError, APIConnectionTimeoutError };
const SOURCE = { provider: 'anthropic', model: 'claude-sonnet-4-5' };

describe('providerErrorFromSdk', () => {
  it('keeps an AgentloopError as it is', () => {
    const error = new AgentloopError('already classified', { code: 'cancelled' });
    expect(providerErrorFromSdk(error, SDK, SOURCE, false)).toBe(error);
  });

  it('reads an API error by its status, body and headers', () => {
    const error = new APIError(
      429,
      { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down.' } },
      '429 Slow down.',
      new Headers({ 'retry-after': '7' }),
    );
    const mapped = providerErrorFromSdk(error, SDK, SOURCE, false);
    expect(mapped).toBeInstanceOf(ProviderError);
    expect(mapped).toMatchObject({ code: 'rate_limit', statusCode: 429, retryable: true, retryAfterMs: 7_000 });
    expect(mapped.cause).toBe(error);
  });

  it('takes a provider id alone as the source', () => {
    const mapped = providerErrorFromSdk(new APIError(500, undefined, '500 oops', undefined), SDK, 'openai', false);
    expect(mapped).toMatchObject({ code: 'server_error', provider: 'openai', statusCode: 500 });
  });

  it('tells a timed-out connection from another failed one', () => {
    const timedOut = providerErrorFromSdk(new APIConnectionTimeoutError('Request timed out.'), SDK, SOURCE, false);
    const failed = providerErrorFromSdk(new APIConnectionError('Connection error.'), SDK, SOURCE, false);
    expect(timedOut).toMatchObject({ code: 'timeout', retryable: true });
    expect(failed).toMatchObject({ code: 'network' });
  });

  it('leaves anything else to providerErrorFromThrown', () => {
    const mapped = providerErrorFromSdk(new Error('the SDK could not read its options'), SDK, SOURCE, false);
    expect(mapped).toMatchObject({ code: 'unknown', retryable: false });
  });
});

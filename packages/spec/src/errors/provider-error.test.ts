import { describe, expect, it } from 'vitest';
import { AgentloopError } from './agentloop-error.js';
import { ProviderError } from './provider-error.js';

describe('ProviderError', () => {
  it.each([
    ['rate_limit', true, 'retry'],
    ['overloaded', true, 'retry'],
    ['server_error', true, 'retry'],
    ['network', true, 'retry'],
    ['context_length', false, 'compact'],
    ['authentication', false, 'stop'],
    ['invalid_request', false, 'stop'],
  ] as const)('classifies %s as retryable=%s with action %s', (code, retryable, action) => {
    const error = new ProviderError('x', { code, provider: 'openai' });
    expect(error.retryable).toBe(retryable);
    expect(error.action).toBe(action);
  });

  it('lets the server override the retry decision', () => {
    expect(new ProviderError('x', { code: 'server_error', provider: 'anthropic', retryable: false }).retryable).toBe(
      false,
    );
  });

  it('is an AgentloopError with its data', () => {
    const error = new ProviderError('slow down', {
      code: 'rate_limit',
      provider: 'anthropic',
      statusCode: 429,
      retryAfterMs: 2000,
    });
    expect(AgentloopError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'ProviderError',
      provider: 'anthropic',
      statusCode: 429,
      retryAfterMs: 2000,
      code: 'rate_limit',
    });
  });
});

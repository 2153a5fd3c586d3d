import { AgentloopError, ProviderError } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, resolveRetryPolicy, retryDelayMs } from './retry-policy.js';

const policy = resolveRetryPolicy({ initialDelayMs: 100, maxDelayMs: 1_000, factor: 2, maxRetries: 3 });
const rateLimit = (retryAfterMs?: number) =>
  new ProviderError('slow down', { code: 'rate_limit', provider: 'test', statusCode: 429, retryAfterMs });

describe('retry policy', () => {
  it('defaults to four retries', () => {
    expect(DEFAULT_RETRY_POLICY.maxRetries).toBe(4);
    expect(resolveRetryPolicy().maxRetries).toBe(4);
  });

  // The providers README promises: 4 retries, 0.5 s ×2 up to 30 s, full jitter, a retry-after capped at 60 s.
  it('by default backs off below 0.5 s, 1 s, 2 s, 4 s … and never above 30 s', () => {
    const almostOne = () => 0.999_999;
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 8, 12].map((attempt) =>
      backoffDelayMs(resolveRetryPolicy(), attempt, almostOne),
    );
    expect(ceilings).toEqual([499, 999, 1_999, 3_999, 7_999, 15_999, 29_999, 29_999, 29_999]);
    expect(resolveRetryPolicy({ maxRetries: 1 })).toMatchObject({ initialDelayMs: 500, maxDelayMs: 30_000, factor: 2 });
  });

  it('by default honours a retry-after of at most 60 s', () => {
    const defaults = resolveRetryPolicy();
    expect(retryDelayMs(defaults, 1, rateLimit(59_000))).toBe(59_000);
    expect(retryDelayMs(defaults, 1, rateLimit(61_000))).toBe(60_000);
  });

  it('grows the backoff ceiling by the factor up to the maximum', () => {
    const almostOne = () => 0.999_999;
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelayMs(policy, attempt, almostOne))).toEqual([
      99, 199, 399, 799, 999,
    ]);
  });

  it('draws the backoff uniformly below the ceiling (full jitter)', () => {
    expect(backoffDelayMs(policy, 3, () => 0)).toBe(0);
    expect(backoffDelayMs(policy, 3, () => 0.5)).toBe(200);
  });

  it('uses the server-requested wait instead of the backoff', () => {
    expect(retryDelayMs(policy, 1, rateLimit(2_500), () => 0.5)).toBe(2_500);
  });

  it('waits at most maxRetryAfterMs when the server asks for longer, rather than giving up', () => {
    expect(retryDelayMs(policy, 1, rateLimit(DEFAULT_RETRY_POLICY.maxRetryAfterMs + 1))).toBe(60_000);
    expect(retryDelayMs(policy, 1, rateLimit(86_400_000))).toBe(60_000);
    expect(retryDelayMs({ ...policy, maxRetryAfterMs: 5_000 }, 1, rateLimit(9_000))).toBe(5_000);
  });

  it('backs off on retry-after 0 instead of retrying at once', () => {
    expect([1, 2, 3].map((attempt) => retryDelayMs(policy, attempt, rateLimit(0), () => 0.5))).toEqual([50, 100, 200]);
    expect(retryDelayMs(policy, 1, rateLimit(0), () => 0.5)).toBeGreaterThan(0);
  });

  it('never retries a non-retryable error', () => {
    const invalid = new ProviderError('bad', { code: 'invalid_request', provider: 'test', statusCode: 400 });
    expect(retryDelayMs(policy, 1, invalid)).toBeUndefined();
    expect(retryDelayMs(policy, 1, new AgentloopError('x', { code: 'unknown' }))).toBeUndefined();
  });

  it('stops once the budget is spent', () => {
    expect(retryDelayMs(policy, 3, rateLimit(), () => 0.5)).toBe(200);
    expect(retryDelayMs(policy, 4, rateLimit(), () => 0.5)).toBeUndefined();
  });
});

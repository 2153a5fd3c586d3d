import { describe, expect, it } from 'vitest';
import { retryAfterMs, shouldRetryHeader } from './retry-after.js';

const headers = (values: Record<string, string>) => new Headers(values);

describe('retryAfterMs', () => {
  it('prefers retry-after-ms', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '1250.5', 'retry-after': '9' }))).toBe(1250.5);
  });

  it('reads retry-after in seconds', () => {
    expect(retryAfterMs(headers({ 'retry-after': '2' }))).toBe(2_000);
  });

  it('reads retry-after as an HTTP date', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 21 Oct 2026 07:28:30 GMT' }), () => now)).toBe(30_000);
  });

  it('is undefined without a readable value', () => {
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('shouldRetryHeader', () => {
  it('reads the server verdict', () => {
    expect(shouldRetryHeader(headers({ 'x-should-retry': 'true' }))).toBe(true);
    expect(shouldRetryHeader(headers({ 'x-should-retry': 'false' }))).toBe(false);
    expect(shouldRetryHeader(headers({}))).toBeUndefined();
  });
});

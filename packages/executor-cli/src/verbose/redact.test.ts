import { describe, expect, it } from 'vitest';
import { createRedactor, environmentSecrets } from './redact.js';

describe('createRedactor', () => {
  it('replaces a known secret wherever it appears', () => {
    const redact = createRedactor(['my-local-secret-123']);
    expect(redact('key=my-local-secret-123 and again my-local-secret-123')).toBe('key=[REDACTED] and again [REDACTED]');
  });

  it('replaces key-shaped strings it was not told about', () => {
    const redact = createRedactor([]);
    expect(redact('using sk-ant-api03-abcdefghijklmnop')).toBe('using [REDACTED]');
    expect(redact('using sk-proj-abcdefghijklmnopqrstuv')).toBe('using [REDACTED]');
    expect(redact('Authorization: Bearer abc.def.ghijklmnop')).toBe('Authorization: Bearer [REDACTED]');
    expect(redact('{"api_key":"0123456789abcdef"}')).toBe('{"api_key":"[REDACTED]"}');
  });

  it('ignores secrets too short to replace safely', () => {
    expect(createRedactor(['abc'])('abc abc')).toBe('abc abc');
  });
});

describe('environmentSecrets', () => {
  it('picks variables named like secrets', () => {
    expect(environmentSecrets({ OPENAI_API_KEY: 'k1', GITHUB_TOKEN: 't1', HOME: '/home/u', DB_PASSWORD: 'p' })).toEqual(
      ['k1', 't1', 'p'],
    );
  });
});

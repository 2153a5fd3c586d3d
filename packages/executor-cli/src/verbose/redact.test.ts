import { describe, expect, it } from 'vitest';
import { createRedactor, environmentSecrets, redactUrlCredentials } from './redact.js';

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

  it('replaces the user-info of URLs', () => {
    expect(createRedactor([])('Cannot reach http://user:hunter2@host/v1.')).toBe('Cannot reach http://***@host/v1.');
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

describe('redactUrlCredentials', () => {
  it('replaces a user name and password', () => {
    expect(redactUrlCredentials('http://user:password@host/v1')).toBe('http://***@host/v1');
  });

  it('replaces a user name alone, and a password that holds an @', () => {
    expect(redactUrlCredentials('https://token@gw.example')).toBe('https://***@gw.example');
    expect(redactUrlCredentials('http://u:p@ss@127.0.0.1:9/v1/chat')).toBe('http://***@127.0.0.1:9/v1/chat');
  });

  it('replaces every URL in a text, inside JSON too', () => {
    expect(redactUrlCredentials('{"message":"GET http://a:b@x/y failed, then HTTPS://c:d@z"}')).toBe(
      '{"message":"GET http://***@x/y failed, then HTTPS://***@z"}',
    );
  });

  it('leaves URLs without user-info alone, and an @ in the path or query', () => {
    const text = 'http://host:8080/v1 and http://host/users/@me?by=a@b.c and mail me@host';
    expect(redactUrlCredentials(text)).toBe(text);
  });
});

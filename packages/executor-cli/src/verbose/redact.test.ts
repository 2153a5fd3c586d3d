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
  it('replaces a password of 500 characters, and reads a long line without going back over it', () => {
    const password = 'p'.repeat(500);
    expect(redactUrlCredentials(`see http://admin:${password}@host/v1`)).toBe('see http://***@host/v1');
    // Many URL starts and no @: each start reads at most a bounded stretch, so this stays linear.
    const line = 'http:u:p '.repeat(20_000);
    expect(redactUrlCredentials(line)).toBe(line);
  });

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

  // Each shape the URL parser accepts as user-info, or that a user may type as a password.
  it.each([
    ['a space', 'http://admin:hunter2 secret@localhost:9/v1', 'http://***@localhost:9/v1'],
    ['a tab', 'http://admin:hunter2\tsecret@localhost:9/v1', 'http://***@localhost:9/v1'],
    ['a quote', 'url "http://admin:hunter2"secret@localhost:9/v1"', 'url "http://***@localhost:9/v1"'],
    ['a backslash', 'http://admin:hunter2\\secret@localhost', 'http://***@localhost'],
    ['a ? and a #', 'http://admin:a?b#c@localhost', 'http://***@localhost'],
    ['no scheme', 'base "//admin:hunter2@localhost:9/v1"', 'base "//***@localhost:9/v1"'],
    ['no slashes after http:', 'http:admin:hunter2@localhost', 'http:***@localhost'],
    ['backslashes after http:', 'http:\\\\admin:hunter2@localhost', 'http:\\\\***@localhost'],
  ])('replaces a password with %s in it', (_case, text, redacted) => {
    expect(redactUrlCredentials(text)).toBe(redacted);
  });

  it('keeps prose after a URL without a path: an email address, a port, a comment', () => {
    for (const text of [
      'see https://example.com or mail me@example.com',
      'it runs on http://localhost:3000 and answers admin@example.com',
      'read https://example.com: ask me@example.com',
      '// contact me@example.com',
      'mailto:me@example.com and git@github.com:org/repo',
    ]) {
      expect(redactUrlCredentials(text)).toBe(text);
    }
  });

  it('ends at the end of the line', () => {
    expect(redactUrlCredentials('http://a:b c@host\nmail me@example.com')).toBe('http://***@host\nmail me@example.com');
  });

  it('leaves URLs without user-info alone, and an @ in the path or query', () => {
    const text = 'http://host:8080/v1 and http://host/users/@me?by=a@b.c and mail me@host';
    expect(redactUrlCredentials(text)).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('redacts the text values of credential fields, whatever their case, and leaves other fields alone', () => {
    expect(
      redactSecrets({
        headers: { Authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': 'k1', cookie: 'session=1' },
        options: { apiKey: 'k2', api_key: 'k3', password: 'p', client_secret: 's', maxTokens: 100 },
        usage: { inputTokens: 5, outputTokens: 6 },
        schema: { properties: { password: { type: 'string' } } },
      }),
    ).toEqual({
      headers: { Authorization: REDACTED, 'x-api-key': REDACTED, cookie: REDACTED },
      options: { apiKey: REDACTED, api_key: REDACTED, password: REDACTED, client_secret: REDACTED, maxTokens: 100 },
      usage: { inputTokens: 5, outputTokens: 6 },
      schema: { properties: { password: { type: 'string' } } },
    });
  });

  it('finds credentials by their shape inside any text', () => {
    const text = [
      'openai sk-proj-AbCdEfGhIjKlMnOpQrStUvWx123',
      'anthropic sk-ant-api03-AbCdEfGhIjKlMnOpQrSt',
      'github ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'aws AKIAIOSFODNN7EXAMPLE',
      'google AIzaSyA-abcdefghijklmnopqrstuvwxyz01234',
      'header Bearer abc.def-ghi_jkl',
      'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ].join('\n');
    expect(redactSecrets(text)).toBe(
      [
        'openai [REDACTED]',
        'anthropic [REDACTED]',
        'github [REDACTED]',
        'aws [REDACTED]',
        'google [REDACTED]',
        'header Bearer [REDACTED]',
        'jwt [REDACTED]',
      ].join('\n'),
    );
  });

  it('keeps ids, signatures and ordinary words that only look a little like keys', () => {
    const values = [
      'toolu_01LtEf4h1QW7KCKLsYMuhTNB',
      'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
      'EqQBCkgIARABGAIiQHsig',
      'gAAAAABpPDIVOKrsHNZ0GwsoEKA_IGfuJ5f8Ma_6',
      'task-completion sk-short',
      'Bearer of bad news',
    ];
    expect(redactSecrets(values)).toEqual(values);
  });

  it('redacts the exact secrets given, longest first', () => {
    expect(redactSecrets({ text: 'my name is Ada Lovelace, Ada for short' }, ['Ada', 'Ada Lovelace'])).toEqual({
      text: 'my name is [REDACTED], [REDACTED] for short',
    });
  });

  it('is idempotent, so a redacted request compares equal to one redacted again', () => {
    const once = redactSecrets({ apiKey: 'k', text: 'sk-ant-api03-AbCdEfGhIjKlMnOpQrSt and Bearer abcdefghij' });
    expect(redactSecrets(once)).toEqual(once);
  });
});

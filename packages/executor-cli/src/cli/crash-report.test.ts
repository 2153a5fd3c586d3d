import { describe, expect, it } from 'vitest';
import { crashReport } from './crash-report.js';

describe('crashReport', () => {
  it('prints the message alone on one line, without a stack trace', () => {
    const error = new Error("ENOTDIR: not a directory, open '/x/config.toml'");
    expect(crashReport(error, ['node', 'agentloop', 'config', 'init'])).toBe(
      "✗ ENOTDIR: not a directory, open '/x/config.toml'\n",
    );
  });

  it('prints the whole error with --verbose', () => {
    const error = new Error('boom', { cause: new Error('root cause') });
    const report = crashReport(error, ['node', 'agentloop', '--verbose', 'run', 'x']);
    expect(report).toContain('Error: boom\n    at ');
    expect(report).toContain('root cause');
  });

  it('redacts the user-info of URLs, with and without --verbose', () => {
    const error = new Error('fetch http://user:password@host/v1 failed');
    expect(crashReport(error, [])).toBe('✗ fetch http://***@host/v1 failed\n');
    expect(crashReport(error, ['--verbose'])).not.toContain('password');
    expect(crashReport(error, ['--verbose'])).toContain('Error: fetch http://***@host/v1 failed');
  });

  it('strips control sequences, with and without --verbose', () => {
    const error = new Error('bad\x1b]0;pwned\x07 \x9b2Jthing\u202e');
    expect(crashReport(error, [])).toBe('✗ bad thing\n');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
    expect(crashReport(error, ['--verbose'])).not.toMatch(/[\x1b\x80-\x9f\u202e]/);
  });

  it('prints a thrown value that is not an Error', () => {
    expect(crashReport('plain text', [])).toBe('✗ plain text\n');
  });
});

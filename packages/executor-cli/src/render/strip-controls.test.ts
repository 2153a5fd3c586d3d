import { describe, expect, it } from 'vitest';
import { stripControls } from './strip-controls.js';

describe('stripControls', () => {
  it('keeps plain text, newlines and tabs', () => {
    expect(stripControls('a\tb\nc — ü 日本')).toBe('a\tb\nc — ü 日本');
  });

  it('drops colour and cursor sequences (CSI)', () => {
    expect(stripControls('\x1b[31mred\x1b[0m \x1b[2J\x1b[1;1Hhome \x9b31mc1')).toBe('red home c1');
  });

  it('drops title, clipboard and hyperlink sequences (OSC) with either terminator', () => {
    expect(stripControls('\x1b]0;pwned\x07a\x1b]52;c;ZXZpbA==\x1b\\b\x1b]8;;http://evil\x07link\x1b]8;;\x07')).toBe(
      'ablink',
    );
  });

  it('drops device control strings and two-byte escapes', () => {
    expect(stripControls('\x1bPq#0\x1b\\x\x1bcy\x1b(Bz')).toBe('xyz');
  });

  it('drops other C0 and C1 controls, carriage returns included', () => {
    expect(stripControls('a\rb\x07c\x08d\x00e\x85f\x7fg\r\n')).toBe('abcdefg\n');
  });
});

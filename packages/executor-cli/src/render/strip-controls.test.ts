import { describe, expect, it } from 'vitest';
import { escapeJsonControls, stripControls } from './strip-controls.js';

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

  it('drops the bidirectional controls that reorder what is shown', () => {
    expect(stripControls('a\u202ab\u202bc\u202cd\u202de\u202ef\u2066g\u2067h\u2068i\u2069j')).toBe('abcdefghij');
    expect(stripControls('invoice\u202egpj.exe')).toBe('invoicegpj.exe');
  });

  it('keeps right-to-left text itself', () => {
    expect(stripControls('שלום مرحبا')).toBe('שלום مرحبا');
  });
});

describe('escapeJsonControls', () => {
  it('escapes what JSON.stringify leaves raw: DEL, C1 and bidi controls', () => {
    const json = JSON.stringify({ text: 'a\x9b2Jb\x85c\u202ed\x7fe' });
    expect(escapeJsonControls(json)).toBe('{"text":"a\\u009b2Jb\\u0085c\\u202ed\\u007fe"}');
  });

  it('changes no data for a JSON reader', () => {
    const value = { text: 'a\x9b2J\u2066b\x1b]0;t\x07', list: ['\x90q', 'plain — ü'] };
    expect(JSON.parse(escapeJsonControls(JSON.stringify(value)))).toEqual(value);
  });
});

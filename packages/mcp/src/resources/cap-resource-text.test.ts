import { describe, expect, it } from 'vitest';
import { capResourceText, DEFAULT_MAX_RESOURCE_BYTES } from './cap-resource-text.js';

const TEXT = 'alpha\nbravo\ncharlie\ndelta\n';

describe('capResourceText', () => {
  it('gives a text within the limit as it is', () => {
    expect(capResourceText(TEXT, { maxBytes: 26 })).toBe(TEXT);
  });

  it('cuts at the last line end within the limit, saying what was given and where to read on', () => {
    expect(capResourceText(TEXT, { maxBytes: 14 })).toBe(
      "alpha\nbravo\n[lines 1-2 of the resource's 26 bytes in 4 lines, cut at 14 bytes; read on with start_line 3.]",
    );
  });

  it('reads on from start_line, and says where the resource ends', () => {
    expect(capResourceText(TEXT, { startLine: 3, maxBytes: 14 })).toBe(
      "charlie\ndelta\n[lines 3-4 of the resource's 26 bytes in 4 lines.]",
    );
    expect(capResourceText(TEXT, { startLine: 5 })).toBe(
      '[start_line 5 is past the end of the resource: 26 bytes in 4 lines.]',
    );
  });

  it('gives a line longer than the limit in pieces, never half a character, and says how to read on in it', () => {
    expect(capResourceText('ééééé\nnext\n', { maxBytes: 5 })).toBe(
      'éé\n[line 1 is longer than 5 bytes, so it comes in pieces: characters 1-2 of its 5 are shown; read on with start_line 1, start_char 3 for the next, or raise maxResourceBytes (max_resource_bytes) to see it whole; the resource holds 16 bytes in 2 lines.]',
    );
    expect(capResourceText('ééééé\nnext\n', { maxBytes: 5, startChar: 5 })).toBe(
      "é\n[line 1 from character 5 of the resource's 16 bytes in 2 lines, cut at 5 bytes; read on with start_line 2.]",
    );
  });

  it('reads all of a one-line text longer than the limit, piece by piece', () => {
    // Minified JSON is one long line: none of it may be out of reach.
    const line = JSON.stringify({
      items: Array.from({ length: 40 }, (_, index) => ({ index, name: `näme ${index}` })),
    });
    let read = '';
    let window: { startLine?: number; startChar?: number } = {};
    for (let calls = 0; calls < 100; calls += 1) {
      const text = capResourceText(line, { ...window, maxBytes: 100 });
      const note = /\n\[line 1 [^\n]*\]$/.exec(text);
      read += note ? text.slice(0, note.index) : text;
      const next = /start_line (\d+), start_char (\d+)/.exec(note?.[0] ?? '');
      if (!next) break;
      window = { startLine: Number(next[1]), startChar: Number(next[2]) };
    }
    expect(Buffer.byteLength(line)).toBeGreaterThan(1000);
    expect(read).toBe(line);
  });

  it('cuts a long line between graphemes: a letter keeps its combining mark, an emoji sequence stays whole', () => {
    // "é" written as e and U+0301: the cut must not fall between them.
    expect(capResourceText('e\u0301e\u0301e\u0301\n', { maxBytes: 4 })).toMatch(
      /^e\u0301\n\[line 1 is longer than 4 bytes, so it comes in pieces: characters 1-2 of its 6 are shown; read on with start_line 1, start_char 3 /,
    );
    // A grapheme longer than the limit is given whole, so that reading on moves forward.
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(capResourceText(`${family}${family}`, { maxBytes: 10 })).toMatch(
      new RegExp(
        `^${family}\\n\\[line 1 is longer than 10 bytes, so it comes in pieces: characters 1-8 of its 16 are shown; read on with start_line 1, start_char 9 `,
        'u',
      ),
    );
  });

  it('reads on from start_char inside a line, on into the lines after it', () => {
    expect(capResourceText('abcdef\nxy\nz\n', { startChar: 4, maxBytes: 7 })).toBe(
      "def\nxy\n[line 1 from character 4 to line 2 of the resource's 12 bytes in 3 lines, cut at 7 bytes; read on with start_line 3.]",
    );
    expect(capResourceText('abcdef\nxy\n', { startLine: 2, startChar: 4 })).toBe(
      '[start_char 4 is past the end of line 2 of the resource: it has 2 characters.]',
    );
  });

  it('cuts at 64 KB by default, the limit of read_file', () => {
    const line = `${'x'.repeat(1023)}\n`;
    const text = capResourceText(line.repeat(100));
    expect(DEFAULT_MAX_RESOURCE_BYTES).toBe(65_536);
    expect(text.startsWith(line.repeat(64))).toBe(true);
    expect(text.slice(line.length * 64)).toBe(
      "[lines 1-64 of the resource's 100.0 KB in 100 lines, cut at 64.0 KB; read on with start_line 65.]",
    );
  });
});

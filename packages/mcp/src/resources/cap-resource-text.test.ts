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

  it('gives the start of a line longer than the limit, never half a character', () => {
    expect(capResourceText('ééééé\nnext\n', { maxBytes: 5 })).toBe(
      'éé\n[line 1 is longer than 5 bytes, so only its start is shown; the resource holds 16 bytes in 2 lines; read on with start_line 2.]',
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

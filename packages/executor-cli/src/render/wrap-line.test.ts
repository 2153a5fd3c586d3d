import { describe, expect, it } from 'vitest';
import { createStyle } from './terminal.js';
import { wrapLine } from './wrap-line.js';

describe('wrapLine', () => {
  it('breaks a long line between words, indenting the rows after the first', () => {
    const line = '↻ rate_limit: Too many requests in the last minute. Retrying in 2.0 s (attempt 2).';
    const rows = wrapLine(line, 40).split('\n');

    expect(rows).toEqual([
      '↻ rate_limit: Too many requests in the',
      '  last minute. Retrying in 2.0 s',
      '  (attempt 2).',
    ]);
    expect(rows.every((row) => row.length <= 40)).toBe(true);
  });

  it('keeps a line that fits as it is', () => {
    expect(wrapLine('✗ The run failed.', 40)).toBe('✗ The run failed.');
  });

  it('keeps the styles of a coloured line across its rows', () => {
    const style = createStyle(true);
    const rows = wrapLine(style.yellow('one two three four five six'), 16).split('\n');

    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.includes('\u001b[33m'))).toBe(true);
  });
});

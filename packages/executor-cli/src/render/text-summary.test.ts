import { describe, expect, it } from 'vitest';
import { cutText, formatDuration, summarizeArguments, summarizeResult } from './text-summary.js';

describe('cutText', () => {
  it('keeps text that fits', () => {
    expect(cutText('hello', 5)).toEqual({ text: 'hello', cut: 0 });
  });

  it('ends cut text with an ellipsis and counts what was cut', () => {
    expect(cutText('hello world', 6)).toEqual({ text: 'hello…', cut: 6 });
  });

  it('cuts after the last whole word that fits, never inside a word', () => {
    expect(cutText('Reads a file of the workspace, with line numbers', 30)).toEqual({
      text: 'Reads a file of the…',
      cut: 29,
    });
    expect(cutText('Reads a file of the workspace, with line numbers', 31)).toEqual({
      text: 'Reads a file of the workspace,…',
      cut: 18,
    });
  });

  it('cuts inside a word only when no word ends near the cut', () => {
    expect(cutText('see https://example.com/a/very/long/path', 20)).toEqual({ text: 'see https://example…', cut: 21 });
  });

  it('counts characters, not UTF-16 units', () => {
    expect(cutText('🙂🙂🙂', 2)).toEqual({ text: '🙂…', cut: 2 });
  });
});

describe('summarizeArguments', () => {
  it('lists keys with JSON values', () => {
    expect(summarizeArguments({ path: 'src/a.ts', limit: 20 })).toBe('path: "src/a.ts", limit: 20');
  });

  it('cuts each long value and the whole', () => {
    const summary = summarizeArguments({ content: 'x'.repeat(100), other: 'y'.repeat(100) }, 50, 12);
    expect(summary).toBe('content: "xxxxxxxxxx…, other: "yyyyyyyyyy…');
  });

  it('shows nothing for no arguments', () => {
    expect(summarizeArguments(undefined)).toBe('');
  });
});

describe('summarizeResult', () => {
  it('puts a result on one line', () => {
    expect(summarizeResult('a\n  b\n', 40)).toBe('a b');
  });

  it('notes how much of a long result was cut and how many lines it had', () => {
    const content = Array.from({ length: 40 }, (_, line) => `line ${line}`).join('\n');
    const summary = summarizeResult(content, 40);
    expect(summary).toBe(`line 0 line 1… (+${content.length - 13} chars, 40 lines)`);
    expect(summary.length).toBeLessThanOrEqual(40);
  });

  it('says when a result is empty', () => {
    expect(summarizeResult('  ', 20)).toBe('(empty)');
  });
});

describe('formatDuration', () => {
  it.each([
    [12.4, '12 ms'],
    [1250, '1.3 s'],
    [125_000, '2 m 05 s'],
    [999.4, '999 ms'],
    [999.6, '1.0 s'],
    [59_970, '1 m 00 s'],
  ])('formats %d ms as %s', (milliseconds, text) => {
    expect(formatDuration(milliseconds)).toBe(text);
  });
});

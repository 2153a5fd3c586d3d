import { describe, expect, it } from 'vitest';
import { createStyle } from './terminal.js';
import { formatToolCallLine } from './tool-call-line.js';

const plain = createStyle(false);

describe('formatToolCallLine', () => {
  it('shows name, short arguments, duration and the result on one line', () => {
    const line = formatToolCallLine(
      { name: 'read_file', arguments: { path: 'a.txt' }, durationMs: 3, content: 'hello', isError: false },
      plain,
      100,
    );
    expect(line).toBe('✓ read_file(path: "a.txt") 3 ms → hello');
  });

  it('shows the error of a failed call', () => {
    const line = formatToolCallLine(
      { name: 'read_file', arguments: { path: 'x' }, durationMs: 1, content: 'File not found: x', isError: true },
      plain,
      100,
    );
    expect(line).toBe('✗ read_file(path: "x") 1 ms → error: File not found: x');
  });

  it('cuts a long result to the width and notes how much was cut', () => {
    const content = 'word '.repeat(400);
    const line = formatToolCallLine(
      { name: 'list_files', arguments: {}, durationMs: 2, content, isError: false },
      plain,
      80,
    );
    expect(line.length).toBeLessThanOrEqual(80);
    expect(line).toMatch(/^✓ list_files\(\) 2 ms → word word .*… \(\+1,9\d\d chars\)$/);
  });

  it('colours the mark when colour is on', () => {
    const line = formatToolCallLine(
      { name: 't', arguments: {}, durationMs: 1, content: 'ok', isError: false },
      createStyle(true),
      80,
    );
    expect(line.startsWith('\x1b[32m✓\x1b[39m')).toBe(true);
  });
});

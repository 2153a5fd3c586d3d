import { describe, expect, it } from 'vitest';
import { StderrTail } from './stderr-tail.js';

describe('StderrTail', () => {
  it('keeps the last lines of a long output, cut at a line start', () => {
    const tail = new StderrTail(20);
    for (let line = 1; line <= 50; line++) tail.append(`line ${line}\n`);
    expect(tail.text()).toBe('line 49\nline 50');
  });

  it('is empty after clear', () => {
    const tail = new StderrTail();
    tail.append('boom\n');
    tail.clear();
    expect(tail.text()).toBe('');
  });
});

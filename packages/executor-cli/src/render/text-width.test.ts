import { describe, expect, it, vi } from 'vitest';
import { loadTextWidth, textWidth, wrapStyledText } from './text-width.js';

// Recorded as they are imported: an import (not a `require`) is what an app's bundler follows.
const imported = vi.hoisted(() => [] as string[]);
vi.mock('string-width', async (importOriginal) => {
  imported.push('string-width');
  return importOriginal();
});
vi.mock('wrap-ansi', async (importOriginal) => {
  imported.push('wrap-ansi');
  return importOriginal();
});

describe('loadTextWidth', () => {
  it('imports string-width and wrap-ansi, which the synchronous measures then use', async () => {
    await Promise.all([loadTextWidth(), loadTextWidth()]);
    expect(imported.sort()).toEqual(['string-width', 'wrap-ansi']);
    expect(textWidth('日本')).toBe(4);
    expect(wrapStyledText('one two three', 7, { hard: true, trim: true })).toBe('one two\nthree');
  });
});

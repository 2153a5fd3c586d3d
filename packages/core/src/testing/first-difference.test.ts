import { describe, expect, it } from 'vitest';
import { describeDifference, firstDifference } from './first-difference.js';

describe('firstDifference', () => {
  it('is undefined for equal values', () => {
    expect(firstDifference({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toBeUndefined();
  });

  it('names the path of the first differing value, keys in sorted order and items in order', () => {
    expect(
      firstDifference(
        { messages: [{ role: 'user' }, { role: 'tool', content: [{ text: 'a' }] }], z: 1 },
        { messages: [{ role: 'user' }, { role: 'tool', content: [{ text: 'b' }] }], z: 2 },
      ),
    ).toEqual({ path: 'messages[1].content[0].text', expected: 'a', actual: 'b' });
  });

  it('reports an item or a key that only one side has as absent on the other', () => {
    expect(firstDifference({ tools: [1, 2] }, { tools: [1] })).toEqual({
      path: 'tools[1]',
      expected: 2,
      actual: undefined,
    });
    expect(firstDifference({ a: 1 }, { a: 1, settings: { maxTokens: 5 } })).toEqual({
      path: 'settings',
      expected: undefined,
      actual: { maxTokens: 5 },
    });
  });

  it('reports values of different types at their path', () => {
    expect(firstDifference({ a: [1] }, { a: { 0: 1 } })).toEqual({ path: 'a', expected: [1], actual: { 0: 1 } });
  });
});

describe('describeDifference', () => {
  it('points at the first differing character of two texts, showing an excerpt around it', () => {
    const before = 'x'.repeat(100);
    const text = describeDifference({
      path: 'systemPrompt',
      expected: `${before}cat${'y'.repeat(100)}`,
      actual: `${before}cut`,
    });
    expect(text.split('\n')).toEqual([
      '  at systemPrompt:',
      `    expected: "…${'x'.repeat(29)}cat${'y'.repeat(28)}…"`,
      `    actual:   "…${'x'.repeat(29)}cut"`,
      `${' '.repeat(15 + 1 + 30)}^ first difference at character 101`,
    ]);
  });

  it('shows other values as JSON, cut when long, and an absent one as absent', () => {
    const text = describeDifference({ path: 'tools[3]', expected: { name: 'echo' }, actual: undefined });
    expect(text).toBe('  at tools[3]:\n    expected: {"name":"echo"}\n    actual:   (absent)');
    const long = describeDifference({ path: 'x', expected: 'a'.repeat(10), actual: ['b'.repeat(200)] });
    expect(long).toContain('(204 characters)');
  });
});

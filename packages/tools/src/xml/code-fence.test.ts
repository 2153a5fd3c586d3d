import { describe, expect, test } from 'vitest';
import { fenceOpenerStart, heldFenceStart, stripCodeFence } from './code-fence.js';
import { measureSearchSpan } from './test-support/search-span.js';

/** Prose whose last 64 characters (the window looked at) hold no backtick, then a long tail that does. */
const PROSE = 'I will read the file first. '.repeat(4);
const TEXT_WITH_FENCE_AFTER = `${PROSE}${'b'.repeat(100_000)}\n\`\`\`xml\n`;

describe('fenceOpenerStart', () => {
  test.each([
    ['a fence with a language', 'text\n```xml\n', 5],
    ['a bare fence', 'text\n```\n', 5],
    ['a fence on the same line as the tag', 'text ```json ', 5],
    ['an indented line after the fence', '```xml\n   ', 0],
    ['CRLF line ends', 'a\r\n```xml\r\n', 3],
    ['no fence', 'text `code`\n', -1],
    ['a fence followed by other text', '```xml\n<a/>\n', -1],
    ['a language longer than 16 characters', '```abcdefghijklmnopq\n', -1],
  ])('finds %s', (_name, text, start) => {
    expect(fenceOpenerStart(text, 0, text.length)).toBe(start);
  });

  test('looks only at the text from `from`', () => {
    expect(fenceOpenerStart('```xml\n', 1, 7)).toBe(-1);
  });

  test('reads no further than `to`, however much text follows it', () => {
    let start = 0;
    const span = measureSearchSpan(() => {
      start = fenceOpenerStart(TEXT_WITH_FENCE_AFTER, 0, PROSE.length);
    });
    expect(start).toBe(-1);
    expect(span).toBeLessThanOrEqual(64);
  });
});

describe('heldFenceStart', () => {
  test.each([
    ['one backtick', 'text `', 5],
    ['two backticks', 'text ``', 5],
    ['a partial language', 'text ```xm', 5],
    ['a fence and a carriage return', 'text ```xml\r', 5],
    ['a whole opener', 'text ```xml\n  ', 5],
    ['plain text', 'text', 4],
    ['inline code', 'run `ls` now', 12],
  ])('holds back %s', (_name, text, start) => {
    expect(heldFenceStart(text, 0, text.length)).toBe(start);
  });

  test('reads no further than `to`, however much text follows it', () => {
    let start = 0;
    const span = measureSearchSpan(() => {
      start = heldFenceStart(TEXT_WITH_FENCE_AFTER, 0, PROSE.length);
    });
    expect(start).toBe(PROSE.length);
    expect(span).toBeLessThanOrEqual(64);
  });
});

describe('stripCodeFence', () => {
  test.each([
    ['a json fence', '\n```json\n{"a": 1}\n```\n', '{"a": 1}'],
    ['a bare fence', '```\n{}\n```', '{}'],
    ['a fence on one line', '```json{"a": 1}```', '{"a": 1}'],
    ['no fence', '  {"a": 1} ', '{"a": 1}'],
    ['an empty fence', '```json\n```', ''],
  ])('removes %s', (_name, body, expected) => {
    expect(stripCodeFence(body)).toBe(expected);
  });
});

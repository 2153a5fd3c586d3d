import { describe, expect, test } from 'vitest';
import { BlockBodyScanner } from './block-body-scanner.js';

/** Scans `chunks` in order; returns the chunk index and position just past the closing tag, or undefined. */
function scanChunks(chunks: readonly string[]): { scanner: BlockBodyScanner; end?: [number, number] } {
  const scanner = new BlockBodyScanner();
  for (const [index, chunk] of chunks.entries()) {
    const end = scanner.scan(chunk, 0);
    if (end !== -1) return { scanner, end: [index, end] };
  }
  return { scanner };
}

describe('where the block ends', () => {
  test.each([
    ['after a JSON object', ['{"a": 1}</tool> rest'], [0, 15]],
    ['at </tool_call>', ['{"a": 1}</tool_call>'], [0, 20]],
    ['at a closing tag split across chunks', ['{"a": 1}</to', 'ol> rest'], [1, 3]],
    ['at a closing tag split into single characters', [...'{}</tool>'], [8, 1]],
    ['after a string ending in an escaped backslash', ['{"a": "x\\\\"}</tool>'], [0, 19]],
    ['after XML elements', ['<tool_name>x</tool_name></tool>'], [0, 31]],
    ['after a CDATA section ended by ]]]>', ['<a><![CDATA[x]]]></a></tool>'], [0, 28]],
    ['at a closing tag right after the opening one', ['</tool>'], [0, 7]],
  ])('ends the block %s', (_name, chunks, end) => {
    expect(scanChunks(chunks).end).toEqual(end);
  });

  test.each([
    ['inside a JSON string', ['{"a": "</tool>"}']],
    ['inside a JSON string after an escaped quote', ['{"a": "\\"</tool>"}']],
    ['inside a JSON string split across chunks', ['{"a": "</to', 'ol>"}']],
    ['inside a CDATA section', ['<a><![CDATA[</tool>]]></a>']],
    ['inside a CDATA section whose opener is split across chunks', ['<a><![CD', 'ATA[</tool>]]></a>']],
    ['at a different closing tag', ['{"a": 1}</toolbox></tools>']],
  ])('does not end the block at a closing tag %s', (_name, chunks) => {
    expect(scanChunks(chunks).end).toBeUndefined();
  });
});

describe('state at the end of the stream', () => {
  test('remembers the first closing tag hidden inside a string', () => {
    const { scanner } = scanChunks(['{"a": "x</tool> y</tool_call>']);
    expect(scanner.hiddenCloser).toEqual({ start: 8, length: 7 });
  });

  test('remembers a hidden closing tag inside CDATA', () => {
    const { scanner } = scanChunks(['<a><![CDATA[ab', '</tool_call>']);
    expect(scanner.hiddenCloser).toEqual({ start: 14, length: 12 });
  });

  test.each([
    ['a closed JSON object', '{"a": {"b": [1]}}\n', true],
    ['an open JSON object', '{"a": {"b": 1}', false],
    ['an open JSON string', '{"a": "b', false],
    ['XML elements', '<a>b</a>', true],
    ['an open CDATA section', '<a><![CDATA[b', false],
    ['only a code fence', '```json\n', false],
  ])('calls %s complete: %s', (_name, body, complete) => {
    expect(scanChunks([body]).scanner.complete).toBe(complete);
  });

  test('knows the stream stopped inside a JSON string', () => {
    expect(scanChunks(['{"a": "b']).scanner.insideString).toBe(true);
  });

  test('counts a partial closing tag at the end as pending', () => {
    expect(scanChunks(['{"a": 1}</too']).scanner.pendingLength).toBe(5);
  });

  test('reads the syntax after a code fence inside the block', () => {
    expect(scanChunks(['```json\n{"a": "</tool>"}\n```\n</tool>']).end).toEqual([0, 36]);
  });
});

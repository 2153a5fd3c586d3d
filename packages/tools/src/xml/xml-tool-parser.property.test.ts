import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { mergeAdjacent, parseChunks } from './test-support/parse-chunks.js';
import type { XmlParserEvent } from './xml-parser-event.js';
import type { XmlToolParserOptions } from './xml-tool-parser.js';

/** Pieces of model output that exercise every rule: tags, near-tags, JSON, CDATA, fences, prose. */
const fragment = fc.oneof(
  fc.constantFrom(
    'Let me read the file.',
    ' ',
    '\n',
    '\n\n',
    'i<10',
    'x > 3',
    'a<b>c',
    '<',
    '>',
    '<t',
    '<tool',
    '<tool>',
    '</tool>',
    '<tool_call>',
    '</tool_call>',
    '<toolbox>',
    '<notool>',
    '<thinking>',
    '</thinking>',
    '<think>',
    '</think>',
    '`',
    '```',
    '```xml\n',
    '```json\n',
    '{',
    '}',
    '"',
    '\\',
    '"</tool>"',
    '<![CDATA[',
    ']]>',
    ']]',
    '<tool_name>read_file</tool_name>',
    '<arguments>',
    '</arguments>',
    '<path>a && b.ts</path>',
    '"tool_name": "read_file"',
    '"arguments": {"path": "a.ts"}',
    '{"tool_name": "read_file", "arguments": {"path": "a.ts"}}',
    '<tool>\n{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a.ts"}}\n</tool>',
    '<tool_call>{"name": "grep", "parameters": "{\\"q\\": \\"</tool>\\"}"}</tool_call>',
    '<tool><tool_name>edit</tool_name><arguments><d><![CDATA[<<<<<<< SEARCH\n</tool>\n>>>>>>> REPLACE]]></d></arguments></tool>',
    '```xml\n<tool>{"tool_name": "ls"}</tool>\n```',
    '<thinking>if a<b then c>d</thinking>',
    '<think>hmm</think>',
    // Lengths around the parser's bounds: held whitespace, fence language, the tool-name peek window.
    ' '.repeat(65),
    '\n'.repeat(257),
    '```a_very_long_language_name\n',
    `{"arguments": {"content": "${'x'.repeat(520)}"}, "tool_name": "late"}`,
  ),
  fc.string({
    unit: fc.constantFrom('a', ' ', '\n', '<', '>', '/', '{', '}', '"', '\\', '`', '[', ']', '!', 't', 'o', 'l'),
  }),
);

const modelOutput = fc.array(fragment, { maxLength: 24 }).map((pieces) => pieces.join(''));

/** Any input, and any split of it into chunks (some of them empty). */
const splitOutput = modelOutput.chain((text) =>
  fc.array(fc.nat({ max: text.length }), { maxLength: 12 }).map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), text.length];
    return { text, chunks: points.slice(1).map((point, index) => text.slice(points[index], point)) };
  }),
);

describe.each<[string, XmlToolParserOptions]>([
  ['the default options', {}],
  ['a 40-character block limit', { maxBlockBytes: 40 }],
])('with %s', (_name, options) => {
  test('gives the same events for any split of the input into chunks as for the whole input', () => {
    fc.assert(
      fc.property(splitOutput, ({ text, chunks }) => {
        expect(mergeAdjacent(parseChunks(chunks, options))).toEqual(mergeAdjacent(parseChunks([text], options)));
      }),
      { numRuns: 3000 },
    );
  });

  test('gives the same events fed one character at a time as for the whole input', () => {
    fc.assert(
      fc.property(modelOutput, (text) => {
        expect(mergeAdjacent(parseChunks([...text], options))).toEqual(mergeAdjacent(parseChunks([text], options)));
      }),
      { numRuns: 1000 },
    );
  });

  test('ends every opened block with exactly one tool-call or parse-error, and nothing in between', () => {
    fc.assert(
      fc.property(modelOutput, (text) => {
        expect(blockShapes(parseChunks([text], options))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});

test('passes text without `<` or backticks through unchanged', () => {
  fc.assert(
    fc.property(
      fc.string().filter((text) => !/[<`]/.test(text)),
      (text) => {
        const expected = text === '' ? [] : [{ type: 'text', text }];
        expect(mergeAdjacent(parseChunks([text]))).toEqual(expected);
      },
    ),
  );
});

/** The ways `events` break the block lifecycle (tool-start, at most one tool-name, then one result). */
function blockShapes(events: readonly XmlParserEvent[]): string[] {
  const problems: string[] = [];
  let open: 'started' | 'named' | undefined;
  for (const event of events) {
    if (event.type === 'tool-start') {
      if (open !== undefined) problems.push('tool-start inside a block');
      open = 'started';
    } else if (event.type === 'tool-name') {
      if (open !== 'started') problems.push('tool-name outside a block or twice');
      open = 'named';
    } else if (event.type === 'tool-call' || event.type === 'parse-error') {
      if (open === undefined) problems.push(`${event.type} outside a block`);
      open = undefined;
    } else if (open !== undefined) problems.push(`${event.type} inside a block`);
  }
  if (open !== undefined) problems.push('a block never ended');
  return problems;
}

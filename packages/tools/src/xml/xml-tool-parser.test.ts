import { describe, expect, test } from 'vitest';
import { mergeAdjacent, parseByCharacter, parseChunks, parseWhole } from './test-support/parse-chunks.js';
import { measureSearchSpan } from './test-support/search-span.js';
import type { XmlParserEvent } from './xml-parser-event.js';
import { XmlToolParser } from './xml-tool-parser.js';

const READ_BLOCK = '<tool>\n{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a.ts"}}\n</tool>';

function readCall(raw = READ_BLOCK): XmlParserEvent[] {
  return [
    { type: 'tool-start' },
    { type: 'tool-name', toolName: 'read_file' },
    {
      type: 'tool-call',
      serverName: 'local',
      toolName: 'read_file',
      arguments: { path: 'a.ts' },
      raw,
      repaired: false,
    },
  ];
}

/** Parses `text` whole and one character at a time, checks both agree, and returns the events. */
function parse(text: string): XmlParserEvent[] {
  const whole = parseWhole(text);
  expect(parseByCharacter(text)).toEqual(whole);
  return whole;
}

describe('message text', () => {
  test('streams text without tags as soon as it arrives', () => {
    const parser = new XmlToolParser();
    expect(parser.feed('Hello, ')).toEqual([{ type: 'text', text: 'Hello, ' }]);
    expect(parser.feed('world')).toEqual([{ type: 'text', text: 'world' }]);
    expect(parser.flush()).toEqual([]);
  });

  test.each(['<', '<t', '<to', '<tool', '<tool_', '<tool_cal', '<th', '<think', '<thinkin'])(
    'holds back "%s" at the end of a chunk until the next chunk shows what it is',
    (prefix) => {
      const parser = new XmlToolParser();
      expect(parser.feed(`Hi ${prefix}`)).toEqual([{ type: 'text', text: 'Hi ' }]);
      expect(parser.flush()).toEqual([{ type: 'text', text: prefix }]);
    },
  );

  test('releases a held prefix as text when the next chunk shows it is no tag', () => {
    const parser = new XmlToolParser();
    parser.feed('a <too');
    expect(parser.feed('th')).toEqual([{ type: 'text', text: '<tooth' }]);
  });

  test.each([
    'for (let i = 0; i<10; i++) {}',
    'if x > 3 then',
    'a<b>c',
    'an unknown <notool> tag',
    'a <toolbox> here',
    'a stray </tool> closing tag',
    'spaced <tool >{"tool_name": "x"}</tool >',
    'capitalised <Tool>{"tool_name": "x"}</Tool>',
    '<<<<<<< SEARCH and >>>>>>> REPLACE',
  ])('keeps < and > in prose and code as text: %s', (text) => {
    expect(parse(text)).toEqual([{ type: 'text', text }]);
  });

  test.each([
    'I will use the <tool> tag.',
    'Wrap each call in `<tool>` and `</tool>`.',
    'Write <tool>...</tool> to call a tool.',
    'A <tool><toolbox> pair.',
    'Hermes models write a <tool_call> tag.',
  ])('treats a tag whose body does not start like a call as text: %s', (text) => {
    expect(parse(text)).toEqual([{ type: 'text', text }]);
  });

  test('decodes a real block that follows a prose mention of the tag', () => {
    const text = `I will use the <tool> tag:\n${READ_BLOCK}`;
    expect(parse(text)).toEqual([{ type: 'text', text: 'I will use the <tool> tag:\n' }, ...readCall()]);
  });
});

describe('thinking', () => {
  test('splits a <thinking> section out of the message text', () => {
    expect(parse('<thinking>Read it first.</thinking>\nDone')).toEqual([
      { type: 'thinking-start' },
      { type: 'thinking-content', text: 'Read it first.' },
      { type: 'thinking-end' },
      { type: 'text', text: '\nDone' },
    ]);
  });

  test('treats <think> like <thinking>', () => {
    expect(parse('<think>hmm</think>ok')).toEqual([
      { type: 'thinking-start' },
      { type: 'thinking-content', text: 'hmm' },
      { type: 'thinking-end' },
      { type: 'text', text: 'ok' },
    ]);
  });

  test.each([
    'if a<b then c>d',
    'x <= 3 && y >= 4',
    'a </thinkingly> b',
    'I will use <tool>{"tool_name": "x"}</tool> next',
  ])('keeps < and > inside thinking as thinking: %s', (thought) => {
    expect(parse(`<thinking>${thought}</thinking>`)).toEqual([
      { type: 'thinking-start' },
      { type: 'thinking-content', text: thought },
      { type: 'thinking-end' },
    ]);
  });

  test('streams thinking at once, holding back only a possible closing tag', () => {
    const parser = new XmlToolParser();
    expect(parser.feed('<thinking>abc </thin')).toEqual([
      { type: 'thinking-start' },
      { type: 'thinking-content', text: 'abc ' },
    ]);
    expect(parser.feed('king>')).toEqual([{ type: 'thinking-end' }]);
  });

  test('ends a <thinking> section at </think> too, as models mix the two', () => {
    expect(parse('<thinking>a</think>b').slice(2)).toEqual([{ type: 'thinking-end' }, { type: 'text', text: 'b' }]);
  });

  test('ends a thinking section the stream ended inside at flush', () => {
    const parser = new XmlToolParser();
    parser.feed('<think>still thinking </thi');
    expect(parser.flush()).toEqual([{ type: 'thinking-content', text: '</thi' }, { type: 'thinking-end' }]);
  });
});

describe('tool blocks', () => {
  test('decodes a JSON block into a tool-call carrying the whole block as raw', () => {
    expect(parse(`Let me look.\n${READ_BLOCK}\n`)).toEqual([
      { type: 'text', text: 'Let me look.\n' },
      ...readCall(),
      { type: 'text', text: '\n' },
    ]);
  });

  test('decodes a <tool_call> block', () => {
    const raw = '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.ts"}}\n</tool_call>';
    expect(parse(raw)).toEqual(readCall(raw));
  });

  test('emits tool-start when the block opens and tool-name once the name has streamed', () => {
    const parser = new XmlToolParser();
    expect(parser.feed('<tool>\n{"server_name": "local", "tool_na')).toEqual([{ type: 'tool-start' }]);
    expect(parser.feed('me": "read_file", "arguments": {')).toEqual([{ type: 'tool-name', toolName: 'read_file' }]);
  });

  test('ends a <tool_call> block at </tool> too, as models mix the two', () => {
    const raw = '<tool_call>{"tool_name": "read_file", "arguments": {"path": "a.ts"}}</tool>';
    expect(parse(`${raw}!`)).toEqual([...readCall(raw), { type: 'text', text: '!' }]);
  });

  test('emits tool-name early for an XML-element block too', () => {
    const parser = new XmlToolParser();
    expect(parser.feed('<tool>\n<tool_name>read_file</tool_name>\n<argu')).toEqual([
      { type: 'tool-start' },
      { type: 'tool-name', toolName: 'read_file' },
    ]);
  });

  test('emits tool-name just before tool-call when the name follows the arguments', () => {
    const raw = '<tool>{"arguments": {"path": "a.ts"}, "tool_name": "read_file"}</tool>';
    expect(parse(raw)).toEqual(readCall(raw));
  });

  test('does not end a block at a </tool> inside a JSON string', () => {
    const raw = '<tool>{"tool_name": "write_file", "arguments": {"content": "a </tool> b"}}</tool>';
    expect(parse(`${raw} after`).slice(2)).toEqual([
      {
        type: 'tool-call',
        serverName: 'local',
        toolName: 'write_file',
        arguments: { content: 'a </tool> b' },
        raw,
        repaired: false,
      },
      { type: 'text', text: ' after' },
    ]);
  });

  test('does not end a block at a </tool> inside a CDATA section', () => {
    const raw =
      '<tool><tool_name>write_file</tool_name><arguments><content><![CDATA[a </tool> b]]></content></arguments></tool>';
    expect(parse(raw).at(-1)).toMatchObject({ type: 'tool-call', arguments: { content: 'a </tool> b' }, raw });
  });

  test('emits both calls of a response with two blocks, in order', () => {
    const second = READ_BLOCK.replace('a.ts', 'b.ts');
    const calls = parse(`${READ_BLOCK}\n${second}`).filter((event) => event.type === 'tool-call');
    expect(calls.map((call) => call.arguments)).toEqual([{ path: 'a.ts' }, { path: 'b.ts' }]);
  });

  test('repairs broken JSON once and marks the call as repaired', () => {
    const raw = "<tool>{'tool_name': 'read_file', 'arguments': {'path': 'a.ts'},}</tool>";
    expect(parse(raw).at(-1)).toEqual({
      type: 'tool-call',
      serverName: 'local',
      toolName: 'read_file',
      arguments: { path: 'a.ts' },
      raw,
      repaired: true,
    });
  });

  test.each([
    ['an empty block', '<tool></tool>', 'is empty'],
    ['a block of whitespace', '<tool>\n  \n</tool>', 'is empty'],
    ['a block without a tool name', '<tool>{"arguments": {"path": "a.ts"}}</tool>', 'has no "tool_name"'],
    ['JSON that cannot be repaired', '<tool>{"tool_name": "x"} {"path": 1}</tool>', 'is not valid JSON'],
    [
      'XML that is not well-formed',
      '<tool><tool_name>x</tool_name><arguments><path>a</arguments></tool>',
      'not well-formed XML',
    ],
  ])('reports %s as a parse-error and no tool-call', (_name, raw, reason) => {
    const events = parse(`${raw} then text`);
    expect(events).toEqual([
      { type: 'tool-start' },
      ...events.filter((event) => event.type === 'tool-name'),
      { type: 'parse-error', raw, reason: expect.stringContaining(reason) },
      { type: 'text', text: ' then text' },
    ]);
  });
});

describe('code fences', () => {
  test.each([
    ['```xml', '```'],
    ['```json', '```'],
    ['```', '```'],
    ['```xml  ', '  ```'],
  ])('drops a %s fence around a block, and its closing fence', (opener, closer) => {
    expect(parse(`Calling:\n${opener}\n${READ_BLOCK}\n${closer}\nDone.`)).toEqual([
      { type: 'text', text: 'Calling:\n' },
      ...readCall(),
      { type: 'text', text: '\nDone.' },
    ]);
  });

  test('keeps the indentation before an indented fence as text', () => {
    expect(parse(`1. Read it:\n   \`\`\`xml\n   ${READ_BLOCK}\n   \`\`\``)).toEqual([
      { type: 'text', text: '1. Read it:\n   ' },
      ...readCall(),
    ]);
  });

  test('drops one fence around two blocks', () => {
    const events = parse(`\`\`\`xml\n${READ_BLOCK}\n${READ_BLOCK}\n\`\`\``);
    expect(events).toEqual([...readCall(), ...readCall()]);
  });

  test('keeps a fence that holds no block', () => {
    const text = '```ts\nconst ok = a < b && c > d;\n```\n';
    expect(parse(text)).toEqual([{ type: 'text', text }]);
  });

  test('keeps the closing fence as text when text comes between it and the block', () => {
    expect(parse(`\`\`\`xml\n${READ_BLOCK}\nmore\n\`\`\``)).toEqual([
      ...readCall(),
      { type: 'text', text: '\nmore\n```' },
    ]);
  });
});

describe('end of stream', () => {
  test('decodes a JSON block cut off by a stop sequence', () => {
    const raw = '<tool>{"tool_name": "read_file", "arguments": {"path": "a.ts"}}\n';
    expect(parse(raw)).toEqual(readCall(raw));
  });

  test('decodes an XML block cut off by a stop sequence', () => {
    const raw = '<tool><tool_name>read_file</tool_name><arguments><path>a.ts</path></arguments>';
    expect(parse(raw)).toEqual(readCall(raw));
  });

  test('decodes a cut-off block whose JSON string holds </tool>, keeping the whole string', () => {
    const raw = '<tool>{"tool_name": "write_file", "arguments": {"content": "a </tool> b"}}';
    expect(parse(raw).at(-1)).toMatchObject({ type: 'tool-call', arguments: { content: 'a </tool> b' } });
  });

  test.each([
    [
      'inside a JSON string',
      '<tool>{"tool_name": "write_file", "arguments": {"content": "hello wor',
      'inside a JSON string',
    ],
    [
      'before its JSON object closed',
      '<tool>{"tool_name": "write_file", "arguments": {"content": "hi"',
      'before its content',
    ],
    ['inside a CDATA section', '<tool><tool_name>x</tool_name><arguments><a><![CDATA[abc', 'before its content'],
    ['in a code fence before the body', '<tool>```json\n', 'before its content'],
  ])('reports a block cut off %s as a parse-error', (_where, raw, reason) => {
    expect(parse(raw).at(-1)).toEqual({ type: 'parse-error', raw, reason: expect.stringContaining(reason) });
  });

  test('reports a block cut off inside its closing tag without the partial tag in the body', () => {
    const raw = '<tool>{"tool_name": "read_file", "arguments": {"path": "a.ts"}}</to';
    expect(parse(raw)).toEqual(readCall(raw));
  });

  test('reports a tool tag at the very end of the stream as an empty block', () => {
    expect(parse('Calling <tool>\n')).toEqual([
      { type: 'text', text: 'Calling ' },
      { type: 'tool-start' },
      { type: 'parse-error', raw: '<tool>\n', reason: expect.stringContaining('is empty') },
    ]);
  });

  test('recovers a block whose closing tag an unbalanced quote hid, and streams the text after it', () => {
    const raw = '<tool>{"tool_name": "read_file", "arguments": {"path": "a.ts}}</tool>';
    expect(parse(`${raw}\nI will wait.`)).toEqual([
      { type: 'tool-start' },
      { type: 'tool-name', toolName: 'read_file' },
      {
        type: 'tool-call',
        serverName: 'local',
        toolName: 'read_file',
        arguments: { path: 'a.ts' },
        raw,
        repaired: true,
      },
      { type: 'text', text: '\nI will wait.' },
    ]);
  });

  test('reports a file write cut off after a </tool> in its content instead of running half of it', () => {
    const raw = '<tool>{"tool_name": "write_file", "arguments": {"content": "a </tool> b and then the tokens ran o';
    expect(parse(raw).at(-1)).toEqual({
      type: 'parse-error',
      raw,
      reason: expect.stringContaining('inside a JSON string'),
    });
  });
});

describe('block size limit', () => {
  const big = `<tool>{"tool_name": "write_file", "arguments": {"content": "${'x'.repeat(200)}"}}</tool>`;

  test('reports a block larger than maxBlockBytes as soon as it crosses the limit', () => {
    const parser = new XmlToolParser({ maxBlockBytes: 100 });
    const events = parser.feed(big.slice(0, 150));
    expect(events.at(-1)).toEqual({
      type: 'parse-error',
      raw: big.slice(0, '<tool>'.length + 100),
      reason: expect.stringContaining('longer than 100 characters'),
    });
  });

  test('skips the rest of an oversized block and streams the text after it', () => {
    const events = mergeAdjacent(parseChunks([big.slice(0, 150), big.slice(150), ' after'], { maxBlockBytes: 100 }));
    expect(events.map((event) => event.type)).toEqual(['tool-start', 'tool-name', 'parse-error', 'text']);
    expect(events.at(-1)).toEqual({ type: 'text', text: ' after' });
  });

  test('accepts a block exactly maxBlockBytes long', () => {
    const body = '{"tool_name": "read_file", "arguments": {"path": "a.ts"}}';
    expect(parseChunks([`<tool>${body}</tool>`], { maxBlockBytes: body.length }).at(-1)).toMatchObject({
      type: 'tool-call',
    });
  });

  test('limits a block to 10 MB by default', () => {
    const body = `{"tool_name": "w", "arguments": {"content": "${'x'.repeat(10 * 1024 * 1024)}"}}`;
    const events = parseChunks([`<tool>${body}</tool>`]);
    expect(events.at(-1)).toMatchObject({
      type: 'parse-error',
      reason: expect.stringContaining('longer than 10485760'),
    });
  });
});

describe('lifecycle', () => {
  test('parses a second response with the same parser after flush', () => {
    const parser = new XmlToolParser();
    parser.feed('<thinking>first');
    parser.flush();
    expect([...parser.feed(READ_BLOCK), ...parser.flush()]).toEqual(readCall());
  });

  test('reset drops a half-read block without emitting it', () => {
    const parser = new XmlToolParser();
    parser.feed('<tool>{"tool_name": "read_file"');
    parser.reset();
    expect([...parser.feed('fresh'), ...parser.flush()]).toEqual([{ type: 'text', text: 'fresh' }]);
  });
});

describe('cost on one whole response', () => {
  // A non-streamed response arrives as one string. Each block may be searched around, but only within
  // itself: a search that ran on to the end of the text once per block made 16 MB take half a minute.
  const BLOCK_BODIES = {
    JSON: '{"tool_name": "write_file", "arguments": {"path": "a.ts", "content": "if (a < b && c) x++"}}',
    XML: '<tool_name>write_file</tool_name><arguments><path>a.ts</path><content><![CDATA[if (a < b && c) x++]]></content></arguments>',
  };

  test.each(Object.entries(BLOCK_BODIES))(
    'searches a text of many %s blocks a bounded number of times per character',
    (_syntax, body) => {
      const block = `Now the next file, x > 3:\n\n<tool>\n${body}\n</tool>\n`;
      const text = block.repeat(2_000);
      let events: XmlParserEvent[] = [];
      const span = measureSearchSpan(() => {
        events = parseChunks([text]);
      });
      expect(events.filter((event) => event.type === 'tool-call')).toHaveLength(2_000);
      expect(span / text.length).toBeLessThan(4);
    },
  );
});

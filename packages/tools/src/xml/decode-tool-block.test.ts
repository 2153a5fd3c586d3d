import { describe, expect, test } from 'vitest';
import { decodeToolBlock } from './decode-tool-block.js';

const read = { serverName: 'local', toolName: 'read_file', arguments: { path: 'a.ts' }, repaired: false };

describe('JSON bodies', () => {
  test.each([
    ['the protocol object', '{"server_name": "local", "tool_name": "read_file", "arguments": {"path": "a.ts"}}', read],
    ['name instead of tool_name', '{"name": "read_file", "arguments": {"path": "a.ts"}}', read],
    ['parameters instead of arguments', '{"tool_name": "read_file", "parameters": {"path": "a.ts"}}', read],
    ['input instead of arguments', '{"tool_name": "read_file", "input": {"path": "a.ts"}}', read],
    ['arguments as a JSON string', '{"tool_name": "read_file", "arguments": "{\\"path\\": \\"a.ts\\"}"}', read],
    ['no server_name (local)', '{"tool_name": "read_file", "arguments": {"path": "a.ts"}}', read],
    ['null arguments ({})', '{"tool_name": "now", "arguments": null}', { ...read, toolName: 'now', arguments: {} }],
    ['no arguments ({})', '{"tool_name": "now"}', { ...read, toolName: 'now', arguments: {} }],
    [
      'a tool name with spaces around it (trimmed)',
      '{"tool_name": " read_file ", "arguments": {"path": "a.ts"}}',
      read,
    ],
    [
      'an MCP server',
      '{"server_name": "github", "tool_name": "read_file", "arguments": {"path": "a.ts"}}',
      { ...read, serverName: 'github' },
    ],
    [
      'a code fence inside the block',
      '\n```json\n{"tool_name": "read_file", "arguments": {"path": "a.ts"}}\n```\n',
      read,
    ],
    [
      'a tool_name beside a name argument',
      '{"tool_name": "add_user", "name": "Ann", "arguments": {"age": 3}}',
      { ...read, toolName: 'add_user', arguments: { age: 3 } },
    ],
  ])('decodes %s', (_name, body, expected) => {
    expect(decodeToolBlock(body)).toEqual({ ok: true, ...expected });
  });

  test.each([
    ['a missing closing brace', '{"tool_name": "read_file", "arguments": {"path": "a.ts"}'],
    ['single quotes and a trailing comma', "{'tool_name': 'read_file', 'arguments': {'path': 'a.ts'},}"],
    ['unquoted keys', '{tool_name: "read_file", arguments: {path: "a.ts"}}'],
    ['arguments as a broken JSON string', '{"tool_name": "read_file", "arguments": "{\'path\': \'a.ts\'"}'],
  ])('repairs %s and marks the call as repaired', (_name, body) => {
    expect(decodeToolBlock(body)).toEqual({ ok: true, ...read, repaired: true });
  });
});

describe('XML-element bodies', () => {
  test.each([
    ['elements', '<tool_name>x</tool_name><arguments><path>a.ts</path></arguments>', { path: 'a.ts' }],
    [
      'entities',
      '<tool_name>x</tool_name><arguments><q>a &lt; b &amp; c &#38; &#x26; &quot;</q></arguments>',
      { q: 'a < b & c & & "' },
    ],
    [
      'HTML entities',
      '<tool_name>x</tool_name><arguments><a>&copy; 2025&nbsp;&euro;</a><b>a &lt; b</b></arguments>',
      { a: '\u00a9 2025\u00a0\u20ac', b: 'a < b' },
    ],
    [
      'an entity in CDATA as written, next to one outside it',
      '<tool_name>x</tool_name><arguments><a><![CDATA[&copy; &amp;]]></a><b>&copy;</b></arguments>',
      { a: '&copy; &amp;', b: '\u00a9' },
    ],
    [
      'an unescaped & and &&',
      '<tool_name>x</tool_name><arguments><cmd>make && ./run & wait</cmd></arguments>',
      { cmd: 'make && ./run & wait' },
    ],
    ['a bare < in text', '<tool_name>x</tool_name><arguments><cond>i < 10</cond></arguments>', { cond: 'i < 10' }],
    [
      'text trimmed',
      '<tool_name>x</tool_name>\n<arguments>\n  <path>\n    a.ts\n  </path>\n</arguments>',
      { path: 'a.ts' },
    ],
    [
      'CDATA kept exactly, with </tool> and merge markers',
      '<tool_name>x</tool_name><arguments><diff>\n<![CDATA[\n<<<<<<< SEARCH\nif (a && b) {}\n=======\n</tool>\n>>>>>>> REPLACE\n]]>\n</diff></arguments>',
      { diff: '\n<<<<<<< SEARCH\nif (a && b) {}\n=======\n</tool>\n>>>>>>> REPLACE\n' },
    ],
    [
      'numbers and booleans as strings',
      '<tool_name>x</tool_name><arguments><n>3</n><b>true</b></arguments>',
      { n: '3', b: 'true' },
    ],
    [
      'a value that is clearly JSON decoded',
      '<tool_name>x</tool_name><arguments><list>["a", "b"]</list></arguments>',
      { list: ['a', 'b'] },
    ],
    [
      'JSON-looking CDATA kept as a string',
      '<tool_name>x</tool_name><arguments><c><![CDATA[[1]]]></c></arguments>',
      { c: '[1]' },
    ],
    ['JSON text as the arguments', '<tool_name>x</tool_name><arguments>{"path": "a.ts"}</arguments>', { path: 'a.ts' }],
    [
      'repeated elements as an array',
      '<tool_name>x</tool_name><arguments><f>a</f><f>b</f></arguments>',
      { f: ['a', 'b'] },
    ],
    ['nested elements as objects', '<tool_name>x</tool_name><arguments><o><k>v</k></o></arguments>', { o: { k: 'v' } }],
    [
      'an empty element as an empty string',
      '<tool_name>x</tool_name><arguments><a/><b></b></arguments>',
      { a: '', b: '' },
    ],
    ['an empty arguments element as {}', '<tool_name>x</tool_name><arguments></arguments>', {}],
    ['parameters instead of arguments', '<tool_name>x</tool_name><parameters><p>1</p></parameters>', { p: '1' }],
    [
      'top-level elements as the arguments',
      '<tool_name>x</tool_name><path>a.ts</path><name>n</name>',
      { path: 'a.ts', name: 'n' },
    ],
  ])('decodes %s', (_name, body, args) => {
    expect(decodeToolBlock(body)).toEqual({
      ok: true,
      serverName: 'local',
      toolName: 'x',
      arguments: args,
      repaired: false,
    });
  });

  test('decodes the tool name from <name> and the server from <server_name>', () => {
    const body = '<server_name>github</server_name><name>read_file</name><input><path>a.ts</path></input>';
    expect(decodeToolBlock(body)).toEqual({ ok: true, ...read, serverName: 'github' });
  });

  test('decodes an XML body inside a code fence', () => {
    const body = '```xml\n<tool_name>read_file</tool_name><arguments><path>a.ts</path></arguments>\n```';
    expect(decodeToolBlock(body)).toEqual({ ok: true, ...read });
  });
});

describe('bodies that cannot be decoded', () => {
  test.each([
    ['an empty body', '', 'is empty'],
    ['whitespace', ' \n\t ', 'is empty'],
    ['an empty code fence', '```json\n```', 'is empty'],
    ['JSON without a tool name', '{"arguments": {"path": "a.ts"}}', 'has no "tool_name"'],
    ['an empty tool name', '{"tool_name": "  ", "arguments": {}}', 'has no "tool_name"'],
    ['a tool name that is not a string', '{"tool_name": 3, "arguments": {}}', 'has no "tool_name"'],
    ['JSON that jsonrepair cannot fix', '{"tool_name": "x"} {"path": 1}', 'is not valid JSON'],
    ['a JSON array', '[{"tool_name": "x"}]', 'must hold one JSON object, not an array'],
    ['prose', 'read the file a.ts', 'is not valid JSON'],
    ['a JSON string', '"read_file"', 'must hold one JSON object, not a string'],
    ['arguments that are a number', '{"tool_name": "x", "arguments": 3}', 'must be one JSON object'],
    ['arguments that are a string of prose', '{"tool_name": "x", "arguments": "the file a.ts"}', 'cannot be decoded'],
    ['arguments that are a JSON-encoded array', '{"tool_name": "x", "arguments": "[1, 2]"}', 'must be one JSON object'],
    [
      'an arguments string jsonrepair cannot fix',
      '{"tool_name": "x", "arguments": "{\\"a\\": 1} {"}',
      'cannot be decoded',
    ],
    [
      'XML that is not well-formed',
      '<tool_name>x</tool_name><arguments><path>a.ts</arguments>',
      'is not well-formed XML',
    ],
    [
      'XML code with a tag-like <',
      '<tool_name>x</tool_name><arguments><c>if a<b then</c></arguments>',
      'is not well-formed XML',
    ],
    ['XML without a tool name', '<arguments><path>a.ts</path></arguments>', 'has no "tool_name"'],
    ['XML with a repeated tool name', '<tool_name>x</tool_name><tool_name>y</tool_name>', 'has no "tool_name"'],
    ['XML arguments that are prose', '<tool_name>x</tool_name><arguments>the file</arguments>', 'cannot be decoded'],
  ])('reports %s with a reason the model can act on', (_name, body, reason) => {
    expect(decodeToolBlock(body)).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });

  test('names the tag the model used in the reason', () => {
    expect(decodeToolBlock('', 'tool_call')).toEqual({
      ok: false,
      reason: expect.stringContaining('The <tool_call> block'),
    });
  });

  test('quotes the expected shape in the reason', () => {
    expect(decodeToolBlock('{}')).toEqual({ ok: false, reason: expect.stringContaining('"tool_name": "<tool name>"') });
  });
});

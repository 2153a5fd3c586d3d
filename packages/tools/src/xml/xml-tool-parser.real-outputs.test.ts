import { expect, test } from 'vitest';
import { mergeAdjacent, parseChunks } from './test-support/parse-chunks.js';
import type { XmlParserEvent } from './xml-parser-event.js';

// Responses written the way real models write them when prompted with the <tool> protocol, each
// streamed in 7-character chunks (about two tokens) and checked against the whole-text parse.

function parseStreamed(text: string): XmlParserEvent[] {
  const chunks = text.match(/[\s\S]{1,7}/g) ?? [];
  const streamed = mergeAdjacent(parseChunks(chunks));
  expect(streamed).toEqual(mergeAdjacent(parseChunks([text])));
  return streamed;
}

function summary(events: readonly XmlParserEvent[]): unknown[] {
  return events.map((event) => {
    if (event.type === 'tool-call') return ['call', event.serverName, event.toolName, event.arguments, event.repaired];
    if (event.type === 'parse-error') return ['error', event.reason.slice(0, 40)];
    if (event.type === 'text' || event.type === 'thinking-content') return [event.type, event.text];
    if (event.type === 'tool-name') return ['name', event.toolName];
    return [event.type];
  });
}

test('a response that follows the template: thinking, then one call', () => {
  const text = `<thinking>The user wants the tests fixed. I should read the failing test first; if count<3 it fails.</thinking>

<tool>
{
  "server_name": "local",
  "tool_name": "read_file",
  "arguments": { "path": "src/parser.test.ts" }
}
</tool>`;
  expect(summary(parseStreamed(text))).toEqual([
    ['thinking-start'],
    ['thinking-content', 'The user wants the tests fixed. I should read the failing test first; if count<3 it fails.'],
    ['thinking-end'],
    ['text', '\n\n'],
    ['tool-start'],
    ['name', 'read_file'],
    ['call', 'local', 'read_file', { path: 'src/parser.test.ts' }, false],
  ]);
});

test('a Hermes-style <tool_call> with name and arguments', () => {
  const text = `I'll check the weather for you.
<tool_call>
{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}
</tool_call>`;
  expect(summary(parseStreamed(text)).at(-1)).toEqual([
    'call',
    'local',
    'get_weather',
    { city: 'Paris', unit: 'celsius' },
    false,
  ]);
});

test('a DeepSeek-style <think> section with code in it, then a compact call', () => {
  const text = `<think>
Okay, so the loop is for (i = 0; i<n; i++) and the bug is when n > len. Let me list the files.
</think>

Listing the project files first.
<tool>{"tool_name":"list_files","arguments":{"path":"."}}</tool>`;
  expect(summary(parseStreamed(text))).toEqual([
    ['thinking-start'],
    [
      'thinking-content',
      '\nOkay, so the loop is for (i = 0; i<n; i++) and the bug is when n > len. Let me list the files.\n',
    ],
    ['thinking-end'],
    ['text', '\n\nListing the project files first.\n'],
    ['tool-start'],
    ['name', 'list_files'],
    ['call', 'local', 'list_files', { path: '.' }, false],
  ]);
});

test('a call wrapped in a json fence, with a fence inside the block too', () => {
  const text =
    'Running the tests:\n\n```json\n<tool>\n```json\n{"tool_name": "run", "input": {"command": "npm test"}}\n```\n</tool>\n```\n';
  expect(summary(parseStreamed(text))).toEqual([
    ['text', 'Running the tests:\n\n'],
    ['tool-start'],
    ['name', 'run'],
    ['call', 'local', 'run', { command: 'npm test' }, false],
    ['text', '\n'],
  ]);
});

test('an XML-element call in an xml fence with a SEARCH/REPLACE edit in CDATA', () => {
  const text = `I'll apply the fix.

\`\`\`xml
<tool>
<server_name>local</server_name>
<tool_name>edit_file</tool_name>
<arguments>
  <path>src/a.ts</path>
  <diff><![CDATA[<<<<<<< SEARCH
if (a & b) return x < y;
=======
if (a && b) return x <= y; // see </tool>
>>>>>>> REPLACE]]></diff>
</arguments>
</tool>
\`\`\``;
  expect(summary(parseStreamed(text))).toEqual([
    ['text', "I'll apply the fix.\n\n"],
    ['tool-start'],
    ['name', 'edit_file'],
    [
      'call',
      'local',
      'edit_file',
      {
        path: 'src/a.ts',
        diff: '<<<<<<< SEARCH\nif (a & b) return x < y;\n=======\nif (a && b) return x <= y; // see </tool>\n>>>>>>> REPLACE',
      },
      false,
    ],
  ]);
});

test('a file write whose content holds the protocol itself', () => {
  const content = 'const example = \'<tool>{"tool_name": "x"}</tool>\';\nexport default example;\n';
  const call = JSON.stringify({
    server_name: 'local',
    tool_name: 'write_file',
    arguments: { path: 'fixture.ts', content },
  });
  const text = `Writing the fixture.\n<tool>\n${call}\n</tool>\nDone.`;
  expect(summary(parseStreamed(text))).toEqual([
    ['text', 'Writing the fixture.\n'],
    ['tool-start'],
    ['name', 'write_file'],
    ['call', 'local', 'write_file', { path: 'fixture.ts', content }, false],
    ['text', '\nDone.'],
  ]);
});

test('an OpenAI-style call with the arguments as a JSON string', () => {
  const text = '<tool>{"name": "bash", "arguments": "{\\"command\\": \\"npm test && echo ok\\"}"}</tool>';
  expect(summary(parseStreamed(text)).at(-1)).toEqual([
    'call',
    'local',
    'bash',
    { command: 'npm test && echo ok' },
    false,
  ]);
});

test('a call to an MCP server cut off by the </tool> stop sequence', () => {
  const text =
    'Searching GitHub.\n<tool>\n{"server_name": "github", "tool_name": "search_issues", "arguments": {"query": "parser bug"}}\n';
  expect(summary(parseStreamed(text)).at(-1)).toEqual([
    'call',
    'github',
    'search_issues',
    { query: 'parser bug' },
    false,
  ]);
});

test('a response that calls two tools, with prose about generics between them', () => {
  const text = `<tool>{"tool_name": "read_file", "arguments": {"path": "a.ts"}}</tool>
Then, since Array<string> and a && b are fine:
<tool>{"tool_name": "read_file", "arguments": {"path": "b.ts"}}</tool>`;
  const calls = parseStreamed(text).filter((event) => event.type === 'tool-call');
  expect(calls.map((call) => call.arguments)).toEqual([{ path: 'a.ts' }, { path: 'b.ts' }]);
});

test('a sloppy call with a missing brace and a trailing comma, repaired', () => {
  const text = '<tool>\n{"tool_name": "grep", "arguments": {"pattern": "TODO", "path": "src",}\n</tool>';
  expect(summary(parseStreamed(text)).at(-1)).toEqual([
    'call',
    'local',
    'grep',
    { pattern: 'TODO', path: 'src' },
    true,
  ]);
});

test('a response cut off by max tokens in the middle of a file write', () => {
  const text = '<tool>{"tool_name": "write_file", "arguments": {"path": "a.ts", "content": "export function parse(';
  expect(summary(parseStreamed(text)).at(-1)).toEqual(['error', 'The <tool> block was cut off inside a JS']);
});

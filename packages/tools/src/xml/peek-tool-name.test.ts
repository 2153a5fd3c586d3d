import { expect, test } from 'vitest';
import { peekToolName } from './peek-tool-name.js';

test.each([
  ['a leading tool_name', '\n{"tool_name": "read_file", "argu', 'read_file'],
  ['a leading name', '{"name": "read_file"', 'read_file'],
  ['a tool_name after server_name', '{"server_name": "local", "tool_name": "read_file",', 'read_file'],
  ['a tool_name inside a code fence', '```json\n{"tool_name": "read_file"', 'read_file'],
  ['a leading <tool_name> element', '\n<tool_name> read_file </tool_name><argu', 'read_file'],
  ['a <name> element after <server_name>', '<server_name>gh</server_name>\n<name>read_file</name>', 'read_file'],
])('reads %s', (_name, head, expected) => {
  expect(peekToolName(head)).toBe(expected);
});

test.each([
  ['a name not yet closed', '{"tool_name": "read_fi'],
  ['a name after the arguments', '{"arguments": {"name": "x"}, "tool_name": "read_file"}'],
  ['a name with an escape', '{"tool_name": "read\\u005ffile"}'],
  ['an empty name', '{"tool_name": "  "}'],
  ['a <tool_name> element with an entity', '<tool_name>a&amp;b</tool_name>'],
  ['a <tool_name> element not yet closed', '<tool_name>read_file</tool'],
])('does not guess from %s', (_name, head) => {
  expect(peekToolName(head)).toBeUndefined();
});

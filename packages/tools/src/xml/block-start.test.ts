import { expect, test } from 'vitest';
import { type BlockStart, classifyBlockStart } from './block-start.js';

test.each<[string, string, boolean, BlockStart]>([
  ['a JSON object', '{"tool_name"', false, 'block'],
  ['a JSON object after whitespace', ' \n\t {', false, 'block'],
  ['a code fence', '\n```json\n{', false, 'block'],
  ['a <tool_name> element', '<tool_name>', false, 'block'],
  ['a <name> element', '\n<name>', false, 'block'],
  ['an <arguments> element', '<arguments>', false, 'block'],
  ['the closing tag (an empty block)', '</tool>', false, 'block'],
  ['a word', ' tag.', false, 'text'],
  ['one backtick', '` and', false, 'text'],
  ['another element', '<toolbox>', false, 'text'],
  ['an opening tag again', '<tool>', false, 'text'],
  ['nothing yet', '', false, 'undecided'],
  ['only whitespace yet', '  \n', false, 'undecided'],
  ['a backtick at the end', '`', false, 'undecided'],
  ['two backticks at the end', '``', false, 'undecided'],
  ['a partial element', '<tool_na', false, 'undecided'],
  ['nothing, at the end of the stream', '', true, 'block'],
  ['whitespace, at the end of the stream', ' \n', true, 'block'],
  ['a partial element, at the end of the stream', '<tool_na', true, 'text'],
  ['a backtick, at the end of the stream', '`', true, 'text'],
  ['more than 256 whitespace characters', `${' '.repeat(257)}{`, false, 'text'],
  ['256 whitespace characters', `${' '.repeat(256)}{`, false, 'block'],
])('classifies a body starting with %s', (_name, body, atEnd, expected) => {
  expect(classifyBlockStart(`<tool>${body}`, '<tool>'.length, atEnd)).toBe(expected);
});

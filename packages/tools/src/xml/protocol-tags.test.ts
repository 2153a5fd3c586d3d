import { expect, test } from 'vitest';
import { matchTagAt, STREAM_OPEN_TAGS } from './protocol-tags.js';

test.each([
  ['a whole tag', 'a <tool> b', 2, '<tool>'],
  ['the longer of two tags', '<tool_call>', 0, '<tool_call>'],
  ['<think>', '<think>', 0, '<think>'],
  ['a partial tag at the end', 'a <thin', 2, 'partial'],
  ['a lone < at the end', 'a <', 2, 'partial'],
  ['a different tag', '<toolbox>', 0, undefined],
  ['a tag with a space', '<tool >', 0, undefined],
  ['a partial tag that is not at the end', '<thi ', 0, undefined],
])('matches %s', (_name, text, index, expected) => {
  expect(matchTagAt(text, index, STREAM_OPEN_TAGS)).toBe(expected);
});

import { matchTagAt, TOOL_CLOSE_TAGS } from './protocol-tags.js';

/**
 * What the text after a `<tool>` tag makes of it: a real `block`, prose that merely mentions the tag
 * (`text`), or `undecided` when the chunk ended before that could be told.
 */
export type BlockStart = 'block' | 'text' | 'undecided';

/** Elements an XML-style block body can start with; anything else after `<` is prose or markup. */
const BODY_START_TAGS = [
  '<tool_name>',
  '<name>',
  '<server_name>',
  '<arguments>',
  '<parameters>',
  '<input>',
  ...TOOL_CLOSE_TAGS,
];

/** Whitespace allowed between the tag and the body; bounded so that the text held back stays small. */
const MAX_LEADING_WHITESPACE = 256;

/**
 * Decides whether the `<tool>` tag ending at `text[bodyStart]` opens a block. It does when its body
 * starts, after whitespace, with `{`, a code fence, or one of the block's own elements (or its closing
 * tag, which makes an empty block). So "I will use the <tool> tag" stays text.
 * At the end of the stream (`atEnd`) a tag followed by nothing but whitespace is an empty block: it is
 * most likely a call cut off by a stop sequence, and the model should hear that it sent nothing.
 */
export function classifyBlockStart(text: string, bodyStart: number, atEnd: boolean): BlockStart {
  const limit = Math.min(text.length, bodyStart + MAX_LEADING_WHITESPACE + 1);
  let index = bodyStart;
  while (index < limit && isWhitespace(text.charCodeAt(index))) index++;
  if (index - bodyStart > MAX_LEADING_WHITESPACE) return 'text';
  if (index === text.length) return atEnd ? 'block' : 'undecided';
  const first = text[index];
  if (first === '{') return 'block';
  if (first === '`') {
    if (text.startsWith('```', index)) return 'block';
    const endsInBackticks = /^`{1,2}$/.test(text.slice(index, index + 3));
    return endsInBackticks && !atEnd ? 'undecided' : 'text';
  }
  if (first === '<') {
    const match = matchTagAt(text, index, BODY_START_TAGS);
    if (match === 'partial') return atEnd ? 'text' : 'undecided';
    return match === undefined ? 'text' : 'block';
  }
  return 'text';
}

/** Space, tab, line feed or carriage return. */
export function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

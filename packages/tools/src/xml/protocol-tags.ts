/** Tags that open a tool block. `<tool_call>` is what Hermes- and Qwen-style models write instead of `<tool>`. */
export const TOOL_OPEN_TAGS = ['<tool>', '<tool_call>'] as const;

/** Tags that close a tool block. Either closes either opening tag: a mismatched pair is noise, not structure. */
export const TOOL_CLOSE_TAGS = ['</tool>', '</tool_call>'] as const;

/** Tags that open a thinking section. `<think>` is what DeepSeek- and Qwen-style reasoning models write. */
export const THINKING_OPEN_TAGS = ['<thinking>', '<think>'] as const;

/** Tags that close a thinking section. */
export const THINKING_CLOSE_TAGS = ['</thinking>', '</think>'] as const;

/** Every tag that changes what the text after it means, looked for in message text. */
export const STREAM_OPEN_TAGS = [...TOOL_OPEN_TAGS, ...THINKING_OPEN_TAGS] as const;

/** The result of `matchTagAt`: the tag found, `'partial'` when the text ends inside one, or undefined. */
export type TagMatch = string | 'partial' | undefined;

/**
 * Which of `tags` starts at `text[index]` (which is a `<`). Returns `'partial'` when the text ends before
 * a tag could be told apart from other text, so that the caller can hold it back until the next chunk.
 */
export function matchTagAt(text: string, index: number, tags: readonly string[]): TagMatch {
  const remaining = text.length - index;
  let partial = false;
  for (const tag of tags) {
    if (text.startsWith(tag, index)) return tag;
    if (!partial && remaining < tag.length && tag.startsWith(text.slice(index))) partial = true;
  }
  return partial ? 'partial' : undefined;
}

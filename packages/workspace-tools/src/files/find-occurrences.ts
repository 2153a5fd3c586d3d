/** Where a text occurs in another: the offsets of its non-overlapping occurrences and their lines. */
export interface Occurrences {
  /** The offset of each occurrence, in order. */
  offsets: number[];
  /** The line (from 1) each occurrence starts on. */
  lines: number[];
}

/** Finds every non-overlapping occurrence of `needle` (not empty) in `text`, in one pass. */
export function findOccurrences(text: string, needle: string): Occurrences {
  const offsets: number[] = [];
  const lines: number[] = [];
  let line = 1;
  let counted = 0; // the offset up to which newlines have been counted
  for (let offset = text.indexOf(needle); offset !== -1; offset = text.indexOf(needle, offset + needle.length)) {
    for (let newline = text.indexOf('\n', counted); newline !== -1 && newline < offset; ) {
      line += 1;
      newline = text.indexOf('\n', newline + 1);
    }
    counted = offset;
    offsets.push(offset);
    lines.push(line);
  }
  return { offsets, lines };
}

/** `text` with the text at each offset (of `length` characters) replaced by `replacement`, literally. */
export function replaceAt(text: string, offsets: readonly number[], length: number, replacement: string): string {
  const parts: string[] = [];
  let from = 0;
  for (const offset of offsets) {
    parts.push(text.slice(from, offset), replacement);
    from = offset + length;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

import { formatBytes } from '../results/format-bytes.js';

/**
 * The most of a resource's text attached at once, in bytes of UTF-8: 64 KB, what the workspace's
 * `read_file` returns of a file, so that a resource costs the context what a file does.
 */
export const DEFAULT_MAX_RESOURCE_BYTES = 64 * 1024;

/** Which part of a resource's text to give, and how much of it at most. */
export interface ResourceTextWindow {
  /**
   * The part to start at (from 1), for a resource a server gives in several parts; `startLine` counts in
   * that part. Default 1. Only `resourceContentsValue` reads it: `capResourceText` gives one text.
   */
  readonly part?: number;
  /** The first line to give (from 1). Default 1. */
  readonly startLine?: number;
  /**
   * The character of `startLine` to start at (from 1, in UTF-16 code units as a note counts them), to read
   * on inside a line longer than `maxBytes`. Default 1.
   */
  readonly startChar?: number;
  /** The most bytes (UTF-8) to give, of all the resource's text parts together. Default DEFAULT_MAX_RESOURCE_BYTES. */
  readonly maxBytes?: number;
}

/**
 * A resource's text from `startLine` (and `startChar` in it), cut at the last line end within `maxBytes`,
 * or, in a first line longer than that, at the last whole character (grapheme) within it, with a note
 * saying what was given of how much and how to read on (`start_line` and `start_char` of
 * `read_resource`). The whole text comes back as it is, without a note. Never throws.
 */
export function capResourceText(text: string, window: ResourceTextWindow = {}): string {
  const maxBytes = window.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  const taken = takeResourceText(text, {
    startLine: window.startLine ?? 1,
    startChar: window.startChar ?? 1,
    maxBytes,
    cutInsideLine: true,
  });
  return withNote(taken, { maxBytes, subject: undefined });
}

/** Where a text's part of a resource stands among the resource's parts, for the notes. */
export interface ResourcePartPlace {
  /** The part's number, from 1. */
  readonly part: number;
  /** How many parts the resource has. */
  readonly parts: number;
}

/** What `takeResourceText` took of a text. */
export interface TakenResourceText {
  /** The lines taken (a piece of one line, when `nextChar` is set). */
  readonly text: string;
  /** `text`'s size in bytes of UTF-8. */
  readonly bytes: number;
  /** The whole text's lines, each with its line end. */
  readonly lines: readonly string[];
  /** The whole text's size in bytes of UTF-8. */
  readonly totalBytes: number;
  /** The first line asked for (from 1). */
  readonly startLine: number;
  /** The character of `startLine` asked for (from 1). */
  readonly startChar: number;
  /** The last line taken to its end; `startLine - 1` when none was. */
  readonly lastLine: number;
  /**
   * Set when only a piece of line `startLine` was taken, since what is left of it is longer than the bytes
   * there were: the character after the piece, where to read on.
   */
  readonly nextChar?: number;
  /** True when `startLine` is past the text's last line, or `startChar` past the end of its line. */
  readonly pastEnd: boolean;
}

// Cutting between graphemes keeps a letter with its combining marks and an emoji sequence whole.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The whole lines of `text` from `startLine` (its rest from `startChar`) that fit in `maxBytes`; when not
 * even the first fits, a piece of it cut between graphemes if `cutInsideLine` (nothing was given before
 * it), else nothing. Never throws.
 */
export function takeResourceText(
  text: string,
  options: {
    readonly startLine: number;
    readonly startChar: number;
    readonly maxBytes: number;
    readonly cutInsideLine: boolean;
  },
): TakenResourceText {
  const { startLine, startChar, maxBytes } = options;
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const totalBytes = Buffer.byteLength(text);
  const first = lines[startLine - 1];
  const pastEnd = startLine > Math.max(lines.length, 1) || (first !== undefined && startChar - 1 > lineLength(first));
  const base = { lines, totalBytes, startLine, startChar, pastEnd };
  if (pastEnd) return { ...base, text: '', bytes: 0, lastLine: startLine - 1 };
  const rest = lines.slice(startLine - 1);
  if (first !== undefined) rest[0] = first.slice(startChar - 1);
  let taken = '';
  let takenBytes = 0;
  let lastLine = startLine - 1;
  for (const line of rest) {
    const bytes = Buffer.byteLength(line);
    if (takenBytes + bytes > maxBytes) break;
    taken += line;
    takenBytes += bytes;
    lastLine += 1;
  }
  if (lastLine >= startLine || rest[0] === undefined || !options.cutInsideLine) {
    return { ...base, text: taken, bytes: takenBytes, lastLine };
  }
  // What is left of the line is longer than the limit: a piece of it, read on from the next character.
  const line = rest[0];
  const piece = graphemePrefix(line, maxBytes);
  if (piece.length >= lineLength(line)) {
    // Only the line end was left over: a byte past the limit, rather than a read for it alone.
    return { ...base, text: line, bytes: Buffer.byteLength(line), lastLine: startLine };
  }
  return { ...base, text: piece, bytes: Buffer.byteLength(piece), lastLine, nextChar: startChar + piece.length };
}

/**
 * The longest start of `line` made of whole graphemes within `maxBytes`, and at least one grapheme, so
 * that reading on always moves forward.
 */
function graphemePrefix(line: string, maxBytes: number): string {
  let end = 0;
  let bytes = 0;
  for (const { segment, index } of graphemes.segment(line)) {
    bytes += Buffer.byteLength(segment);
    if (bytes > maxBytes && end > 0) break;
    end = index + segment.length;
    if (bytes >= maxBytes) break;
  }
  return line.slice(0, end);
}

// A line's length in UTF-16 code units without its line end.
function lineLength(line: string): number {
  return line.endsWith('\n') ? line.length - 1 : line.length;
}

/**
 * What was taken with its note (none when it is the whole text): which lines of how much, and where to
 * read on; `subject` names the part of a resource of several. Never throws.
 */
export function withNote(
  taken: TakenResourceText,
  options: { readonly maxBytes: number; readonly subject: ResourcePartPlace | undefined },
): string {
  const { lines, startLine, startChar, lastLine, totalBytes, text, nextChar } = taken;
  const { maxBytes, subject } = options;
  if (startLine === 1 && startChar === 1 && lastLine === lines.length) return text;
  const size = `${formatBytes(totalBytes)} in ${lines.length} line${lines.length === 1 ? '' : 's'}`;
  const where = subject ? `part ${subject.part} of ${subject.parts}` : 'the resource';
  const readOn = (line: number, char = 1) =>
    `read on with ${subject ? `part ${subject.part}, ` : ''}start_line ${line}${char > 1 ? `, start_char ${char}` : ''}`;
  if (taken.pastEnd) {
    const line = lines[startLine - 1];
    if (startLine <= lines.length && line !== undefined) {
      return `[start_char ${startChar} is past the end of line ${startLine} of ${where}: it has ${lineLength(line)} characters.]`;
    }
    return `[start_line ${startLine} is past the end of ${where}: ${size}.]`;
  }
  if (nextChar !== undefined) {
    const characters = lineLength(lines[startLine - 1] ?? '');
    const holder = subject ? `part ${subject.part} of ${subject.parts} holds` : 'the resource holds';
    return `${text}\n[line ${startLine} is longer than ${formatBytes(maxBytes)}, so it comes in pieces: characters ${startChar}-${nextChar - 1} of its ${characters} are shown; ${readOn(startLine, nextChar)} for the next, or raise maxResourceBytes (max_resource_bytes) to see it whole; ${holder} ${size}.]`;
  }
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  const cutShort = lastLine < lines.length;
  const more = cutShort ? `; ${readOn(lastLine + 1)}` : '';
  const cut = cutShort ? `, cut at ${formatBytes(maxBytes)}${subject ? ' for all parts' : ''}` : '';
  const given =
    startChar > 1
      ? `line ${startLine} from character ${startChar}${lastLine > startLine ? ` to line ${lastLine}` : ''}`
      : lastLine === startLine
        ? `line ${startLine}`
        : `lines ${startLine}-${lastLine}`;
  const of = subject ? `${where}, ${size}` : `the resource's ${size}`;
  return `${text}${separator}[${given} of ${of}${cut}${more}.]`;
}

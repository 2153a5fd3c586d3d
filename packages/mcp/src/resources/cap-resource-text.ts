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
  /** The most bytes (UTF-8) to give, of all the resource's text parts together. Default DEFAULT_MAX_RESOURCE_BYTES. */
  readonly maxBytes?: number;
}

/**
 * A resource's text from `startLine`, cut at the last line end within `maxBytes` (or inside a first line
 * longer than that), with a note saying what was given of how much and how to read on
 * (`start_line` of `read_resource`). The whole text comes back as it is, without a note. Never throws.
 */
export function capResourceText(text: string, window: ResourceTextWindow = {}): string {
  const maxBytes = window.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  const taken = takeResourceText(text, { startLine: window.startLine ?? 1, maxBytes, cutInsideLine: true });
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
  /** The lines taken (the start of one line, when `cutLine`). */
  readonly text: string;
  /** `text`'s size in bytes of UTF-8. */
  readonly bytes: number;
  /** The whole text's lines, each with its line end. */
  readonly lines: readonly string[];
  /** The whole text's size in bytes of UTF-8. */
  readonly totalBytes: number;
  /** The first line asked for (from 1). */
  readonly startLine: number;
  /** The last line taken whole; `startLine - 1` when none was. */
  readonly lastLine: number;
  /** True when only the start of line `startLine` was taken: it is longer than the bytes there were. */
  readonly cutLine: boolean;
}

/**
 * The whole lines of `text` from `startLine` that fit in `maxBytes`; when not even the first fits, the
 * start of it if `cutInsideLine` (nothing was given before it), else nothing. Never throws.
 */
export function takeResourceText(
  text: string,
  options: { readonly startLine: number; readonly maxBytes: number; readonly cutInsideLine: boolean },
): TakenResourceText {
  const { startLine, maxBytes } = options;
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const totalBytes = Buffer.byteLength(text);
  let taken = '';
  let takenBytes = 0;
  let lastLine = startLine - 1;
  for (const line of lines.slice(startLine - 1)) {
    const bytes = Buffer.byteLength(line);
    if (takenBytes + bytes > maxBytes) break;
    taken += line;
    takenBytes += bytes;
    lastLine += 1;
  }
  const base = { lines, totalBytes, startLine, lastLine };
  if (lastLine >= startLine || startLine > lines.length || !options.cutInsideLine) {
    return { ...base, text: taken, bytes: takenBytes, cutLine: false };
  }
  // One line longer than the limit: its start, since a line cannot be read from its middle.
  const start = Buffer.from(lines[startLine - 1] ?? '')
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return { ...base, text: start, bytes: Buffer.byteLength(start), cutLine: true };
}

/**
 * What was taken with its note (none when it is the whole text): which lines of how much, and where to
 * read on; `subject` names the part of a resource of several. Never throws.
 */
export function withNote(
  taken: TakenResourceText,
  options: { readonly maxBytes: number; readonly subject: ResourcePartPlace | undefined },
): string {
  const { lines, startLine, lastLine, totalBytes, text } = taken;
  const { maxBytes, subject } = options;
  if (startLine === 1 && lastLine === lines.length) return text;
  const size = `${formatBytes(totalBytes)} in ${lines.length} line${lines.length === 1 ? '' : 's'}`;
  const of = subject ? `part ${subject.part} of ${subject.parts}, ${size}` : `the resource's ${size}`;
  const readOn = (line: number) => `read on with ${subject ? `part ${subject.part}, ` : ''}start_line ${line}`;
  if (startLine > lines.length) {
    const where = subject ? `part ${subject.part} of ${subject.parts}` : 'the resource';
    return `[start_line ${startLine} is past the end of ${where}: ${size}.]`;
  }
  if (taken.cutLine) {
    const more = startLine < lines.length ? `; ${readOn(startLine + 1)}` : '';
    const holder = subject ? `part ${subject.part} of ${subject.parts} holds` : 'the resource holds';
    return `${text}\n[line ${startLine} is longer than ${formatBytes(maxBytes)}, so only its start is shown; ${holder} ${size}${more}.]`;
  }
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  const cutShort = lastLine < lines.length;
  const more = cutShort ? `; ${readOn(lastLine + 1)}` : '';
  const cut = cutShort ? `, cut at ${formatBytes(maxBytes)}${subject ? ' for all parts' : ''}` : '';
  const given = lastLine === startLine ? `line ${startLine}` : `lines ${startLine}-${lastLine}`;
  return `${text}${separator}[${given} of ${of}${cut}${more}.]`;
}

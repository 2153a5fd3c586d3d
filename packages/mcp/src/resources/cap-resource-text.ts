import { formatBytes } from '../results/format-bytes.js';

/**
 * The most of a resource's text attached at once, in bytes of UTF-8: 64 KB, what the workspace's
 * `read_file` returns of a file, so that a resource costs the context what a file does.
 */
export const DEFAULT_MAX_RESOURCE_BYTES = 64 * 1024;

/** Which part of a resource's text to give, and how much of it at most. */
export interface ResourceTextWindow {
  /** The first line to give (from 1). Default 1. */
  readonly startLine?: number;
  /** The most bytes (UTF-8) to give. Default DEFAULT_MAX_RESOURCE_BYTES. */
  readonly maxBytes?: number;
}

/**
 * A resource's text from `startLine`, cut at the last line end within `maxBytes` (or inside a first line
 * longer than that), with a note saying what was given of how much and how to read on
 * (`start_line` of `read_resource`). The whole text comes back as it is, without a note. Never throws.
 */
export function capResourceText(text: string, window: ResourceTextWindow = {}): string {
  const startLine = window.startLine ?? 1;
  const maxBytes = window.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const totalBytes = Buffer.byteLength(text);
  if (startLine === 1 && totalBytes <= maxBytes) return text;
  const size = `${formatBytes(totalBytes)} in ${lines.length} line${lines.length === 1 ? '' : 's'}`;
  if (startLine > lines.length) return `[start_line ${startLine} is past the end of the resource: ${size}.]`;
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
  if (lastLine < startLine) {
    // One line longer than the limit: its start, since a line cannot be read from its middle.
    const start = Buffer.from(lines[startLine - 1] ?? '')
      .subarray(0, maxBytes)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    const more = startLine < lines.length ? `; read on with start_line ${startLine + 1}` : '';
    return `${start}\n[line ${startLine} is longer than ${formatBytes(maxBytes)}, so only its start is shown; the resource holds ${size}${more}.]`;
  }
  const separator = taken.endsWith('\n') ? '' : '\n';
  const more = lastLine < lines.length ? `; read on with start_line ${lastLine + 1}` : '';
  const cut = lastLine < lines.length ? `, cut at ${formatBytes(maxBytes)}` : '';
  const given = lastLine === startLine ? `line ${startLine}` : `lines ${startLine}-${lastLine}`;
  return `${taken}${separator}[${given} of the resource's ${size}${cut}${more}.]`;
}

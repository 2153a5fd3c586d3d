import { WorkspaceToolError } from '../errors/index.js';
import type { PatchHunk, PatchLine } from './parse-patch.js';

/**
 * The text of `path` after its hunks, applied in order, each found after the one before, as codex's
 * reference implementation does: a hunk's `@@` line is found first, then its old lines, compared exactly,
 * then ignoring trailing whitespace, then ignoring surrounding whitespace, then also taking typographic
 * dashes, quotes and spaces for their ASCII forms. A hunk without old lines appends its lines; one marked
 * `*** End of File` must end the file. The result ends with a line end, in the file's own (`\r\n` or
 * `\n`). Throws a WorkspaceToolError (`no_match`) that names the file, the hunk and the line it expected.
 */
export function applyHunks(path: string, before: string, hunks: readonly PatchHunk[]): string {
  // A move without hunks keeps the file byte for byte, its last line end (or lack of one) included.
  if (hunks.length === 0) return before;
  const lineEnd = before.includes('\r\n') ? '\r\n' : '\n';
  const lines = before.split(lineEnd);
  if (lines[lines.length - 1] === '') lines.pop();
  const replacements: { start: number; length: number; lines: string[] }[] = [];
  let position = 0;
  hunks.forEach((hunk, hunkIndex) => {
    const where = `hunk ${hunkIndex + 1} of "${path}"`;
    if (hunk.context !== undefined) {
      const found = seekSequence(lines, [hunk.context], position, false);
      if (found === undefined) {
        throw new WorkspaceToolError(
          `The patch does not apply: ${where} starts at "@@ ${hunk.context}", and no line after line ${position} of the file is "${hunk.context}". Read the file again and give a line it has.`,
          'no_match',
        );
      }
      position = found + 1;
    }
    let hunkLines = hunk.lines;
    let oldLines = expected(hunkLines);
    if (oldLines.length === 0) {
      replacements.push({ start: lines.length, length: 0, lines: hunkLines.map((line) => line.text) });
      return;
    }
    let found = seekSequence(lines, oldLines, position, hunk.endOfFile);
    // A hunk's last empty line often stands for the file's final line end, which is no line of its own.
    if (found === undefined && oldLines[oldLines.length - 1] === '') {
      const lastExpected = hunkLines.findLastIndex((line) => line.kind !== 'add');
      hunkLines = hunkLines.filter((_, index) => index !== lastExpected);
      oldLines = expected(hunkLines);
      found = seekSequence(lines, oldLines, position, hunk.endOfFile);
    }
    if (found === undefined) throw mismatch(where, lines, expected(hunk.lines), position);
    replacements.push({ start: found, length: oldLines.length, lines: replacement(hunkLines, lines, found) });
    position = found + oldLines.length;
  });
  // From the last to the first, so that each replacement's start still points where it was found.
  for (const replacement of [...replacements].sort((a, b) => b.start - a.start)) {
    lines.splice(replacement.start, replacement.length, ...replacement.lines);
  }
  return lines.length === 0 ? '' : `${lines.join(lineEnd)}${lineEnd}`;
}

/** The lines a hunk expects in the file: its context and removed lines. */
function expected(hunkLines: readonly PatchLine[]): string[] {
  return hunkLines.filter((line) => line.kind !== 'add').map((line) => line.text);
}

/**
 * What a hunk found at `start` puts in place of its old lines. A context line keeps the file's own text,
 * so that whitespace the comparison forgave is not rewritten as the model typed it.
 */
function replacement(hunkLines: readonly PatchLine[], lines: readonly string[], start: number): string[] {
  const result: string[] = [];
  let fileLine = start;
  for (const line of hunkLines) {
    if (line.kind === 'context') result.push(lines[fileLine] ?? line.text);
    else if (line.kind === 'add') result.push(line.text);
    if (line.kind !== 'add') fileLine += 1;
  }
  return result;
}

type Comparison = (a: string, b: string) => boolean;

const COMPARISONS: readonly Comparison[] = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
  (a, b) => normalize(a) === normalize(b),
];

/** The first line index, from `start`, where `pattern` occurs, by the strictest comparison that finds it. */
function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, endOfFile: boolean) {
  if (pattern.length > lines.length) return undefined;
  const last = lines.length - pattern.length;
  const first = endOfFile ? last : start;
  for (const same of COMPARISONS) {
    for (let index = first; index <= last; index += 1) {
      if (pattern.every((line, offset) => same(lines[index + offset] ?? '', line))) return index;
    }
  }
  return undefined;
}

// Models write ASCII where files hold typographic punctuation, and the other way round.
function normalize(line: string): string {
  return line
    .trim()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, ' ');
}

const loose: Comparison = (a, b) => normalize(a) === normalize(b);

/**
 * The error for a hunk whose old lines are nowhere after `position`: where the longest run of its first
 * lines does occur, the first line that differs, and what the file has there.
 */
function mismatch(where: string, lines: readonly string[], oldLines: readonly string[], position: number) {
  let best = { start: -1, matched: 0 };
  for (let start = position; start < lines.length; start += 1) {
    let matched = 0;
    while (matched < oldLines.length && start + matched < lines.length) {
      if (!loose(lines[start + matched] ?? '', oldLines[matched] ?? '')) break;
      matched += 1;
    }
    if (matched > best.matched) best = { start, matched };
  }
  const advice = 'Read the file again and copy its lines exactly into the context (" ") and "-" lines.';
  if (best.matched === 0) {
    return new WorkspaceToolError(
      `The patch does not apply: ${where} expects the line "${oldLines[0]}", which is not in the file after line ${position}. ${advice}`,
      'no_match',
    );
  }
  const fileLine = best.start + best.matched;
  const actual = fileLine < lines.length ? `"${lines[fileLine]}"` : 'the end of the file';
  return new WorkspaceToolError(
    `The patch does not apply: ${where} matches lines ${best.start + 1}-${fileLine} of the file, then expects its line ${best.matched + 1}, "${oldLines[best.matched]}", at line ${fileLine + 1}, where the file has ${actual}. ${advice}`,
    'no_match',
  );
}

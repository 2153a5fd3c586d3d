import { WorkspaceToolError } from '../errors/index.js';

/** One line of a hunk: context (` `), removed (`-`) or added (`+`), without its marker. */
export interface PatchLine {
  kind: 'context' | 'remove' | 'add';
  text: string;
}

/** One `@@` hunk of an `*** Update File`: the lines it expects and the lines it puts in their place. */
export interface PatchHunk {
  /** The text after `@@` (a line such as `def main():` to find first), or undefined for a bare `@@`. */
  context: string | undefined;
  /** The hunk's lines, in order: context and removed ones are what the file must hold. */
  lines: PatchLine[];
  /** `*** End of File` followed: the old lines end the file. */
  endOfFile: boolean;
}

/** One file operation of a patch. */
export type PatchOperation =
  /** `*** Add File: path`: a new file with `content`. */
  | { kind: 'add'; path: string; content: string }
  /** `*** Delete File: path`. */
  | { kind: 'delete'; path: string }
  /** `*** Update File: path`, with its hunks, and `moveTo` when a `*** Move to:` line follows. */
  | { kind: 'update'; path: string; moveTo: string | undefined; hunks: PatchHunk[] };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';
const UNIFIED_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

/**
 * Reads a patch in the `*** Begin Patch` ... `*** End Patch` format of OpenAI's coding models (codex's
 * `apply_patch`): Add File (every line `+`), Delete File, and Update File with an optional `Move to` and
 * `@@` hunks of ` `, `-` and `+` lines. Lenient where models are sloppy, as the reference parser is: the
 * patch may be wrapped in a shell heredoc, the marker lines may carry surrounding spaces, the first hunk of
 * a file may leave out its `@@`, and an empty line in a hunk is an empty context line. Throws a
 * WorkspaceToolError (`invalid_patch`) naming the line that cannot be read; paths are checked later, by the
 * workspace guard.
 */
export function parsePatch(patch: string): PatchOperation[] {
  const lines = unwrapHeredoc(patch.replaceAll('\r\n', '\n').split('\n'));
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  if (lines[0]?.trim() !== BEGIN) throw invalid(`the first line must be "${BEGIN}"`);
  if (lines[lines.length - 1]?.trim() !== END) throw invalid(`the last line must be "${END}"`);
  const operations: PatchOperation[] = [];
  let index = 1;
  const last = lines.length - 1;
  while (index < last) {
    const line = (lines[index] ?? '').trim();
    const lineNumber = index + 1;
    if (line === '') {
      index += 1;
    } else if (line.startsWith(ADD)) {
      const path = filePath(line.slice(ADD.length), lineNumber);
      const content: string[] = [];
      index += 1;
      while (index < last && (lines[index] ?? '').startsWith('+')) {
        content.push((lines[index] ?? '').slice(1));
        index += 1;
      }
      operations.push({ kind: 'add', path, content: content.length === 0 ? '' : `${content.join('\n')}\n` });
    } else if (line.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: filePath(line.slice(DELETE.length), lineNumber) });
      index += 1;
    } else if (line.startsWith(UPDATE)) {
      const path = filePath(line.slice(UPDATE.length), lineNumber);
      index += 1;
      let moveTo: string | undefined;
      if ((lines[index] ?? '').trim().startsWith(MOVE)) {
        moveTo = filePath((lines[index] ?? '').trim().slice(MOVE.length), index + 1);
        index += 1;
      }
      const read = readHunks(lines, index, last, path);
      index = read.next;
      if (read.hunks.length === 0 && moveTo === undefined) {
        throw invalid(`"${UPDATE}${path}" on line ${lineNumber} has no hunk; give at least one "@@" hunk`);
      }
      operations.push({ kind: 'update', path, moveTo, hunks: read.hunks });
    } else {
      throw invalid(
        `line ${lineNumber} ("${shorten(line)}") is not a file operation; expected "${ADD}", "${DELETE}" or "${UPDATE}" followed by a path`,
      );
    }
  }
  if (operations.length === 0) throw invalid('it changes no file');
  return operations;
}

// Reads the hunks of one Update File, from `start` up to the next file operation or the end of the patch.
function readHunks(lines: string[], start: number, last: number, path: string): { hunks: PatchHunk[]; next: number } {
  const hunks: PatchHunk[] = [];
  let hunk: PatchHunk | undefined;
  let index = start;
  for (; index < last; index += 1) {
    const line = lines[index] ?? '';
    const trimmed = line.trim();
    // A context line starts with a space, so a file's own `*** ` text never ends the hunk.
    if (line.startsWith('*** ') && trimmed !== END_OF_FILE) break;
    if (trimmed === END_OF_FILE) {
      if (hunk === undefined) throw invalid(`line ${index + 1}: "${END_OF_FILE}" before any hunk of "${path}"`);
      hunk.endOfFile = true;
      hunk = undefined;
      continue;
    }
    if (trimmed === '@@' || line.startsWith('@@ ')) {
      // A unified diff's `@@ -12,3 +12,4 @@` (which models write out of habit) numbers lines rather than
      // naming one, and is read as a bare `@@`.
      const anchor = trimmed === '@@' || UNIFIED_HEADER.test(trimmed) ? undefined : line.slice(3);
      hunk = { context: anchor, lines: [], endOfFile: false };
      hunks.push(hunk);
      continue;
    }
    const marker = line[0];
    if (marker !== ' ' && marker !== '-' && marker !== '+' && line !== '') {
      throw invalid(
        `line ${index + 1} of the hunk for "${path}" ("${shorten(line)}") must start with " " (context), "-" (remove) or "+" (add)`,
      );
    }
    if (hunk === undefined) {
      // The reference parser lets the first hunk of a file leave out its `@@`.
      hunk = { context: undefined, lines: [], endOfFile: false };
      hunks.push(hunk);
    }
    hunk.lines.push({ kind: marker === '-' ? 'remove' : marker === '+' ? 'add' : 'context', text: line.slice(1) });
  }
  for (const each of hunks) {
    if (each.lines.length === 0) {
      throw invalid(`a hunk of "${path}" has no lines; give its " ", "-" and "+" lines after "@@"`);
    }
  }
  return { hunks, next: index };
}

// Models often send the patch as they would type it in a shell: `apply_patch <<'EOF'` ... `EOF`.
function unwrapHeredoc(lines: string[]): string[] {
  const first = lines[0]?.trim() ?? '';
  const heredoc = /^(?:apply_patch\s+)?<<-?\s*(['"]?)(\w+)\1$/.exec(first);
  if (!heredoc) return lines;
  const body = lines.slice(1);
  while (body.length > 0 && body[body.length - 1]?.trim() === '') body.pop();
  if (body[body.length - 1]?.trim() === heredoc[2]) body.pop();
  return body;
}

// Where the path leads is the workspace guard's to check, as for every tool.
function filePath(raw: string, lineNumber: number): string {
  const path = raw.trim();
  if (path === '') throw invalid(`line ${lineNumber} names no file`);
  return path;
}

function shorten(line: string): string {
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

function invalid(problem: string): WorkspaceToolError {
  return new WorkspaceToolError(
    `The patch cannot be read: ${problem}. A patch starts with "${BEGIN}", ends with "${END}", and holds "${ADD}<path>", "${DELETE}<path>" or "${UPDATE}<path>" sections.`,
    'invalid_patch',
  );
}

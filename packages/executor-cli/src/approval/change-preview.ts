import { resolve } from 'node:path';
import type { AgentEventMap } from '@agentloop/core';

/** What a call waiting for approval would do, as the approval screen shows it. */
export type ChangePreview =
  /** The unified diff of a file edit or write; `created` when the file does not exist yet. */
  | { kind: 'diff'; path: string; created: boolean; lines: DiffLine[]; added: number; removed: number }
  /** A command and where it runs: the directory as the model gave it, and absolute (`where`). */
  | { kind: 'command'; command: string; directory: string; where: string }
  /** A file change that cannot be shown (or will fail), and why. */
  | { kind: 'problem'; path: string; problem: string }
  /** An apply_patch call: the diff (or the problem) of each file it changes, in the patch's order. */
  | { kind: 'patch'; files: FileChangePreview[] }
  /** Any other call: its arguments are shown. */
  | { kind: 'arguments' };

/** What one file of a patch would change. */
export type FileChangePreview = Extract<ChangePreview, { kind: 'diff' | 'problem' }>;

/** One line of a diff: a hunk header, context, or a line taken out or put in. */
export interface DiffLine {
  kind: 'hunk' | 'context' | 'removed' | 'added';
  text: string;
}

/** Where the files of a preview are read, confined as the tools are. */
export interface ChangePreviewOptions {
  /** The workspace the tools work in. */
  workspace: string;
  /** More files the deny-list refuses, and files it lets through (the `[tools]` table). */
  deny?: readonly string[];
  allow?: readonly string[];
}

/** Files larger than this are not read for a preview (edit_file edits up to 10 MiB; a diff that long is no help). */
const PREVIEW_MAX_BYTES = 2 * 1024 * 1024;

/**
 * What an `approval-requested` call would change: for `edit_file`, `write_file` and each file of an
 * `apply_patch` the diff, computed from the arguments and the file as it is now (read through the workspace tools' own guard, so a preview never
 * shows a file outside the workspace or on the deny-list); for `run_command` the command. Never rejects: a
 * file that cannot be read, or an edit that will fail, is a `problem` preview saying why.
 */
export async function previewChange(
  event: Pick<AgentEventMap['approval-requested'], 'name' | 'arguments' | 'command'>,
  options: ChangePreviewOptions,
): Promise<ChangePreview> {
  const args = (typeof event.arguments === 'object' && event.arguments !== null ? event.arguments : {}) as Record<
    string,
    unknown
  >;
  if (event.name === 'run_command' && event.command !== undefined) {
    const directory = typeof args.directory === 'string' ? args.directory : '.';
    return { kind: 'command', command: event.command, directory, where: resolve(options.workspace, directory) };
  }
  if (event.name === 'apply_patch' && typeof args.patch === 'string') return previewPatch(args.patch, options);
  const path = typeof args.path === 'string' ? args.path : undefined;
  if (path === undefined) return { kind: 'arguments' };
  if (event.name === 'edit_file' && typeof args.old_text === 'string' && typeof args.new_text === 'string') {
    const before = await readCurrent(path, options);
    if (typeof before !== 'string') return before ?? { kind: 'problem', path, problem: 'the file does not exist' };
    const after = replaced(before, args.old_text, args.new_text, args.replace_all === true);
    if (typeof after !== 'string') return { kind: 'problem', path, problem: after.problem };
    return diffPreview(path, before, after, false);
  }
  if (event.name === 'write_file' && typeof args.content === 'string') {
    const before = await readCurrent(path, options);
    if (before !== undefined && typeof before !== 'string') return before;
    return diffPreview(path, before ?? '', args.content, before === undefined);
  }
  return { kind: 'arguments' };
}

/** The file's text; undefined when it does not exist; a problem preview when it cannot be shown. */
async function readCurrent(
  path: string,
  options: ChangePreviewOptions,
): Promise<string | undefined | Extract<ChangePreview, { kind: 'problem' }>> {
  const { WorkspaceGuard, createDenyList } = await import('@agentloop/workspace-tools');
  const guard = new WorkspaceGuard(options.workspace, {
    denyList: createDenyList({ deny: options.deny ?? [], allow: options.allow ?? [] }),
  });
  try {
    const { handle, stats } = await guard.openFile(path, 'read');
    try {
      if (stats.size > PREVIEW_MAX_BYTES)
        return { kind: 'problem', path, problem: 'the file is too large to show a diff' };
      const bytes = await handle.readFile();
      const text = decodeText(bytes);
      return text ?? { kind: 'problem', path, problem: 'the file is binary' };
    } finally {
      await handle.close();
    }
  } catch (error) {
    // A WorkspaceToolError: the guard's message says what is wrong (outside the workspace, on the deny-list).
    if ((error as { code?: unknown }).code === 'not_found') return undefined;
    return { kind: 'problem', path, problem: error instanceof Error ? error.message : String(error) };
  }
}

function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The text after edit_file's replacement, as the tool does it: `oldText` must occur once (or `replaceAll`),
 * and in a `\r\n` file a `\n` the model wrote stands for the file's line end.
 */
function replaced(text: string, oldText: string, newText: string, replaceAll: boolean): string | { problem: string } {
  if (oldText === '') return { problem: 'old_text is empty, so the edit will fail' };
  let [find, put] = [oldText, newText];
  if (!text.includes(find) && text.includes('\r\n') && !find.includes('\r\n')) {
    [find, put] = [find.replaceAll('\n', '\r\n'), put.replaceAll('\n', '\r\n')];
  }
  const count = text.split(find).length - 1;
  if (count === 0) return { problem: 'old_text does not occur in the file, so the edit will fail' };
  if (count > 1 && !replaceAll) return { problem: `old_text occurs ${count} times in the file, so the edit will fail` };
  return text.split(find).join(put);
}

async function diffPreview(
  path: string,
  before: string,
  after: string,
  created: boolean,
): Promise<Extract<ChangePreview, { kind: 'diff' }>> {
  const { structuredPatch } = await import('diff');
  const patch = structuredPatch(path, path, before, after, undefined, undefined, { context: 3 });
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    lines.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      const kind = line[0] === '+' ? 'added' : line[0] === '-' ? 'removed' : 'context';
      if (kind === 'added') added += 1;
      if (kind === 'removed') removed += 1;
      lines.push({ kind, text: line.slice(1).replace(/\r$/, '') });
    }
  }
  return { kind: 'diff', path, created, lines, added, removed };
}

/**
 * The diff of each file an apply_patch call would change, read and applied as the tool does
 * (`parsePatch`, `applyHunks` of @agentloop/workspace-tools); a patch that cannot be read is one problem,
 * a file whose hunks will not apply (or that cannot be read) a problem of its own.
 */
async function previewPatch(patch: string, options: ChangePreviewOptions): Promise<ChangePreview> {
  const { parsePatch, applyHunks } = await import('@agentloop/workspace-tools');
  let operations: ReturnType<typeof parsePatch>;
  try {
    operations = parsePatch(patch);
  } catch (error) {
    return { kind: 'problem', path: 'the patch', problem: `${messageOf(error)} So the patch will fail.` };
  }
  const files: FileChangePreview[] = [];
  for (const operation of operations) {
    const before = await readCurrent(operation.path, options);
    if (operation.kind === 'add') {
      if (typeof before === 'string') {
        files.push({ kind: 'problem', path: operation.path, problem: 'the file exists, so the patch will fail' });
      } else if (before !== undefined) {
        files.push(before);
      } else {
        files.push(await diffPreview(operation.path, '', operation.content, true));
      }
      continue;
    }
    if (before === undefined) {
      files.push({ kind: 'problem', path: operation.path, problem: 'the file does not exist, so the patch will fail' });
      continue;
    }
    if (typeof before !== 'string') {
      files.push(before);
      continue;
    }
    if (operation.kind === 'delete') {
      files.push(await diffPreview(`${operation.path} (deleted)`, before, '', false));
      continue;
    }
    const shown = operation.moveTo === undefined ? operation.path : `${operation.path} → ${operation.moveTo}`;
    try {
      files.push(await diffPreview(shown, before, applyHunks(operation.path, before, operation.hunks), false));
    } catch (error) {
      files.push({ kind: 'problem', path: shown, problem: messageOf(error) });
    }
  }
  return { kind: 'patch', files };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

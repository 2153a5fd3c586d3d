import { defineTool } from '@agentloop/tools';
import { WorkspaceToolError } from '../errors/index.js';
import type { WorkspaceGuardOptions } from '../guard/index.js';
import { WorkspaceGuard } from '../guard/index.js';
import { lazyZodParameters } from '../schema/lazy-zod-parameters.js';
import { findOccurrences, replaceAt } from './find-occurrences.js';
import { replaceContent } from './replace-content.js';
import { fileLooksBinary, formatBytes, looksBinary } from './text-content.js';
import { readThrough, writeThrough } from './through-file-system.js';
import type { WorkspaceFileSystem } from './workspace-file-system.js';

/** The largest file `edit_file` edits: it holds the whole file, before and after, in memory. */
export const EDIT_FILE_MAX_BYTES = 10 * 1024 * 1024;

/** What an `edit_file` tool is confined to, and where it reads and writes. */
export interface EditFileToolOptions extends WorkspaceGuardOptions {
  /** Reads and writes the text through another program (an editor's buffers) once the guard has checked the file. */
  fileSystem?: WorkspaceFileSystem | undefined;
}

const EDIT_FILE_PARAMETERS = lazyZodParameters(
  {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The file, relative to the workspace.' },
      old_text: { type: 'string', description: 'The exact text to replace, as it is in the file.' },
      new_text: { type: 'string', description: 'The text to put in its place.' },
      replace_all: {
        default: false,
        description: 'Replace every occurrence of old_text. Default: false.',
        type: 'boolean',
      },
    },
    required: ['path', 'old_text', 'new_text'],
  },
  (z) =>
    z.object({
      path: z.string().describe('The file, relative to the workspace.'),
      old_text: z.string().describe('The exact text to replace, as it is in the file.'),
      new_text: z.string().describe('The text to put in its place.'),
      replace_all: z.boolean().default(false).describe('Replace every occurrence of old_text. Default: false.'),
    }),
);

/**
 * `diff` (19 modules), loaded by the first edit: a process that never edits a file never loads it
 * (nor waits for it at start-up).
 */
let loadingDiff: Promise<typeof import('diff')> | undefined;
export function loadDiff(): Promise<typeof import('diff')> {
  loadingDiff ??= import('diff');
  return loadingDiff;
}

/** How many line numbers an ambiguous match lists. */
const LISTED_LINES = 20;

/**
 * `edit_file`: replaces an exact text in a workspace file and returns the unified diff of the change.
 * The old text must occur exactly once (or `replace_all` be set); otherwise the error says how many times
 * it occurred and on which lines, so the model can add context. When the file has `\r\n` line ends and the
 * model wrote `\n`, the text is matched and replaced with the file's line ends. The file is opened once,
 * checked (see openWorkspaceFile), read and written through the same descriptor; with `fileSystem`, it is
 * checked the same way and its text read and written through it instead (an editor's buffer).
 */
export function createEditFileTool(options: EditFileToolOptions = {}) {
  return defineTool({
    name: 'edit_file',
    description:
      'Replace an exact piece of text in a workspace file; returns the diff of the change. old_text must match the file exactly (whitespace and indentation included) and occur exactly once: include enough surrounding lines to make it unique, or set replace_all to replace every occurrence. To create a file or rewrite it whole, use write_file.',
    parameters: EDIT_FILE_PARAMETERS,
    annotations: { readOnly: false, destructive: true, openWorld: false },
    execute: async ({ path, old_text: oldText, new_text: newText, replace_all: replaceAll }, context) => {
      if (oldText === '') {
        throw new WorkspaceToolError(
          'old_text is empty; give the exact text to replace, or use write_file to write a whole file.',
          'invalid_request',
        );
      }
      if (oldText === newText) {
        throw new WorkspaceToolError('old_text and new_text are the same, so nothing would change.', 'invalid_request');
      }
      const guard = WorkspaceGuard.forCall(options, context);
      const { handle, stats, entry } = await guard.openFile(path, 'write');
      try {
        if (stats.size > EDIT_FILE_MAX_BYTES) {
          throw new WorkspaceToolError(
            `"${path}" has ${formatBytes(stats.size)}, more than edit_file edits (${formatBytes(EDIT_FILE_MAX_BYTES)}); change it with run_command instead.`,
            'too_large',
          );
        }
        // Through a file system, the file on disk still says whether it is text.
        if (options.fileSystem && (await fileLooksBinary(handle))) throw binaryFile(path);
        const before = options.fileSystem
          ? await readThrough(options.fileSystem, path, entry, context)
          : textOf(path, await handle.readFile());
        const change = planChange(path, before, oldText, newText, replaceAll);
        // Loaded before the file changes, so that the edit is never made without its diff.
        const { createPatch, FILE_HEADERS_ONLY } = await loadDiff();
        context.signal.throwIfAborted();
        if (options.fileSystem) await writeThrough(options.fileSystem, path, entry, change.after, context);
        else await replaceContent(handle, change.after);
        const diff = createPatch(entry.named, before, change.after, undefined, undefined, {
          context: 3,
          headerOptions: FILE_HEADERS_ONLY,
        });
        const count = change.count === 1 ? '1 occurrence' : `${change.count} occurrences`;
        return `Edited "${entry.named}": replaced ${count}.\n${diff}`;
      } finally {
        await handle.close();
      }
    },
  });
}

// The file's bytes as text, refusing a binary file.
function textOf(path: string, bytes: Buffer): string {
  if (looksBinary(bytes)) throw binaryFile(path);
  return bytes.toString('utf8');
}

function binaryFile(path: string): WorkspaceToolError {
  return new WorkspaceToolError(
    `"${path}" is a binary file (it holds NUL bytes or is not UTF-8); edit_file edits text only.`,
    'wrong_kind',
  );
}

interface PlannedChange {
  after: string;
  count: number;
}

function planChange(
  path: string,
  before: string,
  oldText: string,
  newText: string,
  replaceAll: boolean,
): PlannedChange {
  let target = oldText;
  let replacement = newText;
  let found = findOccurrences(before, target);
  // Models write `\n`; a Windows file has `\r\n`. Match and write in the file's own line ends.
  if (found.offsets.length === 0 && before.includes('\r\n') && oldText.includes('\n') && !oldText.includes('\r')) {
    target = oldText.replaceAll('\n', '\r\n');
    replacement = newText.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n');
    found = findOccurrences(before, target);
  }
  const count = found.offsets.length;
  if (count === 0) {
    throw new WorkspaceToolError(
      `old_text was not found in "${path}". Read the file again with read_file and copy the text exactly, with its whitespace and indentation.`,
      'no_match',
    );
  }
  if (count > 1 && !replaceAll) {
    const lines = found.lines.slice(0, LISTED_LINES).join(', ');
    const more = count > LISTED_LINES ? ', ...' : '';
    throw new WorkspaceToolError(
      `old_text occurs ${count} times in "${path}" (starting on lines ${lines}${more}). Include more of the surrounding text so that it occurs once, or set replace_all to true to replace every occurrence.`,
      'ambiguous_match',
    );
  }
  return { after: replaceAt(before, found.offsets, target.length, replacement), count };
}

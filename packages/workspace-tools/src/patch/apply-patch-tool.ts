import { rm } from 'node:fs/promises';
import { defineTool, type ToolContext } from '@agentloop/tools';
import { WorkspaceToolError } from '../errors/index.js';
import { EDIT_FILE_MAX_BYTES, loadDiff } from '../files/edit-file-tool.js';
import { replaceContent } from '../files/replace-content.js';
import { fileLooksBinary, formatBytes, looksBinary } from '../files/text-content.js';
import { readThrough, writeThrough } from '../files/through-file-system.js';
import type { WorkspaceFileSystem } from '../files/workspace-file-system.js';
import type { OpenedFile, WorkspaceGuardOptions } from '../guard/index.js';
import { WorkspaceGuard } from '../guard/index.js';
import { lazyZodParameters } from '../schema/lazy-zod-parameters.js';
import { applyHunks } from './apply-hunks.js';
import { type PatchOperation, parsePatch } from './parse-patch.js';

/** What an `apply_patch` tool is confined to, and where it reads and writes. */
export interface ApplyPatchToolOptions extends WorkspaceGuardOptions {
  /** Reads and writes the text through another program (an editor's buffers) once the guard has checked the file. */
  fileSystem?: WorkspaceFileSystem | undefined;
}

const PATCH_DESCRIPTION =
  'The patch: "*** Begin Patch", then "*** Add File: <path>" (every line "+"), "*** Delete File: <path>" or "*** Update File: <path>" (optionally "*** Move to: <path>", then "@@" hunks of " " context, "-" and "+" lines), then "*** End Patch". Paths are relative to the workspace.';

const APPLY_PATCH_PARAMETERS = lazyZodParameters(
  {
    type: 'object',
    properties: { patch: { type: 'string', description: PATCH_DESCRIPTION } },
    required: ['patch'],
  },
  (z) => z.object({ patch: z.string().describe(PATCH_DESCRIPTION) }),
);

/** One operation of a patch, checked and read, ready to be written. */
interface PlannedChange {
  operation: PatchOperation;
  /** The file as it is (updates, moves and deletes), open until the patch is applied. */
  opened?: OpenedFile;
  before: string;
  after: string;
}

/**
 * `apply_patch`: adds, updates (with `@@` hunks), moves and deletes workspace files from one patch in the
 * `*** Begin Patch` format OpenAI's coding models are trained on (see parsePatch and applyHunks). Every
 * file goes through the same guard as edit_file and write_file (no path out of the workspace, none on the
 * deny-list, no write to `.git`, `.agentloop` or host configuration). The whole patch is read, checked and
 * applied in memory before the first file changes, so a hunk that does not apply, or a path the guard
 * refuses, changes nothing. Returns the list of changed files and the unified diff of each.
 */
export function createApplyPatchTool(options: ApplyPatchToolOptions = {}) {
  return defineTool({
    name: 'apply_patch',
    description:
      'Change workspace files with a patch: add, update (with @@ hunks whose context and "-" lines must match the file), move or delete files, several in one call. Returns the diff of each change. Include about 3 lines of context around each change, and an "@@ <line>" such as a function signature where the context alone is not unique.',
    parameters: APPLY_PATCH_PARAMETERS,
    annotations: { readOnly: false, destructive: true, openWorld: false },
    execute: async ({ patch }, context) => {
      const operations = parsePatch(patch);
      refuseRepeatedPaths(operations);
      const guard = WorkspaceGuard.forCall(options, context);
      const planned: PlannedChange[] = [];
      try {
        for (const operation of operations) planned.push(await plan(guard, operation, options, context));
        // Loaded before any file changes, so that no change is made without its diff.
        const { createPatch, FILE_HEADERS_ONLY } = await loadDiff();
        context.signal.throwIfAborted();
        const report: string[] = [];
        const diffs: string[] = [];
        for (const change of planned) {
          const named = await write(guard, change, options, context);
          report.push(named.summary);
          diffs.push(
            createPatch(named.path, change.before, change.after, undefined, undefined, {
              context: 3,
              headerOptions: FILE_HEADERS_ONLY,
            }),
          );
        }
        return `Applied the patch:\n${report.join('\n')}\n${diffs.join('')}`;
      } finally {
        await Promise.all(planned.map((change) => change.opened?.handle.close()));
      }
    },
  });
}

// Two operations on one file would apply the second to a text the first has not written yet.
function refuseRepeatedPaths(operations: readonly PatchOperation[]): void {
  const seen = new Set<string>();
  for (const operation of operations) {
    const paths =
      operation.kind === 'update' && operation.moveTo !== undefined
        ? [operation.path, operation.moveTo]
        : [operation.path];
    for (const path of paths) {
      if (seen.has(path)) {
        throw new WorkspaceToolError(
          `The patch names "${path}" more than once; put all the changes of a file in one "*** Update File" section.`,
          'invalid_patch',
        );
      }
      seen.add(path);
    }
  }
}

async function plan(
  guard: WorkspaceGuard,
  operation: PatchOperation,
  options: ApplyPatchToolOptions,
  context: ToolContext,
): Promise<PlannedChange> {
  context.signal.throwIfAborted();
  if (operation.kind === 'add') {
    await refuseExisting(guard, operation.path, 'Add File');
    return { operation, before: '', after: operation.content };
  }
  const opened = await guard.openFile(operation.path, 'write');
  try {
    const before = await readText(operation.path, opened, options, context);
    if (operation.kind === 'delete') return { operation, opened, before, after: '' };
    const after = applyHunks(operation.path, before, operation.hunks);
    if (operation.moveTo !== undefined) await refuseExisting(guard, operation.moveTo, 'Move to');
    return { operation, opened, before, after };
  } catch (error) {
    await opened.handle.close();
    throw error;
  }
}

/**
 * Refuses a path the patch would create where a file is: an Add File of an existing file is most often a
 * model that forgot the file was there, and replacing it whole would lose what it did not know of. The
 * path also passes the guard's checks for a write here, before anything changes.
 */
async function refuseExisting(guard: WorkspaceGuard, path: string, section: string): Promise<void> {
  let opened: OpenedFile;
  try {
    opened = await guard.openFile(path, 'write');
  } catch (error) {
    if (WorkspaceToolError.isInstance(error) && error.code === 'not_found') return;
    throw error;
  }
  await opened.handle.close();
  throw new WorkspaceToolError(
    `"${path}" already exists, so "*** ${section}: ${path}" would replace it; change it with "*** Update File: ${path}", or delete it first.`,
    'invalid_request',
  );
}

async function readText(
  path: string,
  opened: OpenedFile,
  options: ApplyPatchToolOptions,
  context: ToolContext,
): Promise<string> {
  if (opened.stats.size > EDIT_FILE_MAX_BYTES) {
    throw new WorkspaceToolError(
      `"${path}" has ${formatBytes(opened.stats.size)}, more than apply_patch changes (${formatBytes(EDIT_FILE_MAX_BYTES)}); change it with run_command instead.`,
      'too_large',
    );
  }
  if (options.fileSystem) {
    if (await fileLooksBinary(opened.handle)) throw binaryFile(path);
    return readThrough(options.fileSystem, path, opened.entry, context);
  }
  const bytes = await opened.handle.readFile();
  if (looksBinary(bytes)) throw binaryFile(path);
  return bytes.toString('utf8');
}

function binaryFile(path: string): WorkspaceToolError {
  return new WorkspaceToolError(
    `"${path}" is a binary file (it holds NUL bytes or is not UTF-8); apply_patch changes text only.`,
    'wrong_kind',
  );
}

/** Writes one planned change; returns the line of the report and the path its diff names. */
async function write(
  guard: WorkspaceGuard,
  change: PlannedChange,
  options: ApplyPatchToolOptions,
  context: ToolContext,
): Promise<{ summary: string; path: string }> {
  const { operation, opened } = change;
  if (operation.kind === 'add') {
    const path = await create(guard, operation.path, change.after, options, context);
    return { summary: `A ${path}`, path };
  }
  if (opened === undefined) throw new Error(`"${operation.path}" was not opened`);
  if (operation.kind === 'delete') {
    await rm(opened.entry.real);
    return { summary: `D ${opened.entry.named}`, path: opened.entry.named };
  }
  if (operation.moveTo !== undefined) {
    const path = await create(guard, operation.moveTo, change.after, options, context);
    await rm(opened.entry.real);
    return { summary: `R ${opened.entry.named} -> ${path}`, path };
  }
  if (options.fileSystem) await writeThrough(options.fileSystem, operation.path, opened.entry, change.after, context);
  else await replaceContent(opened.handle, change.after);
  return { summary: `M ${opened.entry.named}`, path: opened.entry.named };
}

async function create(
  guard: WorkspaceGuard,
  path: string,
  content: string,
  options: ApplyPatchToolOptions,
  context: ToolContext,
): Promise<string> {
  const { handle, entry, created } = await guard.openFile(path, 'create');
  try {
    if (options.fileSystem) {
      try {
        await writeThrough(options.fileSystem, path, entry, content, context);
      } catch (error) {
        if (created) await rm(entry.real, { force: true }).catch(() => undefined);
        throw error;
      }
    } else {
      await replaceContent(handle, content);
    }
  } finally {
    await handle.close();
  }
  return entry.named;
}

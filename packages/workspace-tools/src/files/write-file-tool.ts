import { rm } from 'node:fs/promises';
import { defineTool } from '@agentloop/tools';
import type { WorkspaceGuardOptions } from '../guard/index.js';
import { WorkspaceGuard } from '../guard/index.js';
import { lazyZodParameters } from '../schema/lazy-zod-parameters.js';
import { replaceContent } from './replace-content.js';
import { formatBytes } from './text-content.js';
import { writeThrough } from './through-file-system.js';
import type { WorkspaceFileSystem } from './workspace-file-system.js';

const WRITE_FILE_PARAMETERS = lazyZodParameters(
  {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The file, relative to the workspace.' },
      content: { type: 'string', description: 'The complete new content of the file.' },
    },
    required: ['path', 'content'],
  },
  (z) =>
    z.object({
      path: z.string().describe('The file, relative to the workspace.'),
      content: z.string().describe('The complete new content of the file.'),
    }),
);

/** What a `write_file` tool is confined to, and where it writes. */
export interface WriteFileToolOptions extends WorkspaceGuardOptions {
  /** Writes the text through another program (an editor's buffers) once the guard has checked the file. */
  fileSystem?: WorkspaceFileSystem | undefined;
}

/**
 * `write_file`: writes a whole text file in the workspace, creating it and its folders when missing and
 * replacing what was there otherwise. The file is opened and checked before anything changes (see
 * openWorkspaceFile): nothing is written outside the workspace, into `.git`, or to a file of the
 * deny-list. With `fileSystem`, the checked file (created empty when missing) is written through it; a file
 * created by the check is removed again when that write fails.
 */
export function createWriteFileTool(options: WriteFileToolOptions = {}) {
  return defineTool({
    name: 'write_file',
    description:
      'Write a whole text file in the workspace (path relative to the workspace), creating it and its folders if missing, replacing its content otherwise. To change part of an existing file, use edit_file instead.',
    parameters: WRITE_FILE_PARAMETERS,
    annotations: { readOnly: false, destructive: true, openWorld: false },
    execute: async ({ path, content }, context) => {
      context.signal.throwIfAborted();
      const guard = WorkspaceGuard.forCall(options, context);
      const { handle, stats, entry, created } = await guard.openFile(path, 'create');
      try {
        context.signal.throwIfAborted();
        if (!options.fileSystem) await replaceContent(handle, content);
      } finally {
        await handle.close();
      }
      if (options.fileSystem) {
        try {
          await writeThrough(options.fileSystem, path, entry, content, context);
        } catch (error) {
          if (created) await rm(entry.real, { force: true }).catch(() => undefined);
          throw error;
        }
      }
      const lines = countLines(content);
      const size = `${lines} ${lines === 1 ? 'line' : 'lines'}, ${formatBytes(Buffer.byteLength(content))}`;
      return created
        ? `Created "${entry.named}" (${size}).`
        : `Replaced "${entry.named}" (${size}; it had ${formatBytes(stats.size)}).`;
    },
  });
}

/** Lines of a text: a last line without a line end counts. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines += 1;
  return text.endsWith('\n') ? lines : lines + 1;
}

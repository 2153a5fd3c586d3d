import { defineTool } from '@agentloop/tools';
import { WorkspaceToolError } from '../errors/index.js';
import type { WorkspaceGuardOptions } from '../guard/index.js';
import { WorkspaceGuard } from '../guard/index.js';
import { lazyZodParameters } from '../schema/lazy-zod-parameters.js';
import { readLineRange, textSource } from './read-line-range.js';
import { fileLooksBinary, formatBytes } from './text-content.js';
import { readThrough } from './through-file-system.js';
import type { WorkspaceFileSystem } from './workspace-file-system.js';

/** The most bytes of text `read_file` returns by default; a longer range is cut at a line end with a note. */
export const READ_FILE_MAX_BYTES = 64 * 1024;

const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

const READ_FILE_PARAMETERS = lazyZodParameters(
  {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The file, relative to the workspace.' },
      start_line: {
        description: 'The first line to read, from 1. Default: 1.',
        type: 'integer',
        minimum: 1,
        maximum: MAX_SAFE_INTEGER,
      },
      end_line: {
        description: 'The last line to read, inclusive. Default: the end.',
        type: 'integer',
        minimum: 1,
        maximum: MAX_SAFE_INTEGER,
      },
    },
    required: ['path'],
  },
  (z) =>
    z.object({
      path: z.string().describe('The file, relative to the workspace.'),
      start_line: z.number().int().min(1).optional().describe('The first line to read, from 1. Default: 1.'),
      end_line: z.number().int().min(1).optional().describe('The last line to read, inclusive. Default: the end.'),
    }),
);

/** What a `read_file` tool is confined to, and how much it returns. */
export interface ReadFileToolOptions extends WorkspaceGuardOptions {
  /** The most bytes of text one call returns. Default: READ_FILE_MAX_BYTES. */
  maxBytes?: number;
  /** Reads the text through another program (an editor's buffers) once the guard has checked the file. */
  fileSystem?: WorkspaceFileSystem | undefined;
}

/**
 * `read_file`: a UTF-8 text file of the workspace, whole or a range of lines, at most `maxBytes` of it
 * with a note that says how to read on. Refuses binary files, FIFOs, devices, the deny-list's files and
 * anything outside the workspace (see WorkspaceGuard). With `fileSystem`, the file is checked on disk and its
 * text read through it (an editor's buffer, unsaved changes included).
 */
export function createReadFileTool(options: ReadFileToolOptions = {}) {
  const maxBytes = options.maxBytes ?? READ_FILE_MAX_BYTES;
  return defineTool({
    name: 'read_file',
    description: `Read a UTF-8 text file in the workspace (path relative to the workspace). Returns its text as it is; more than ${formatBytes(maxBytes)} is cut at a line end, with a note saying how to read on. start_line and end_line (from 1, inclusive) read part of a file. Binary files and files that hold secrets (.env, keys) are refused.`,
    parameters: READ_FILE_PARAMETERS,
    annotations: { readOnly: true, destructive: false, openWorld: false },
    execute: async ({ path, start_line: startLine = 1, end_line: endLine }, context) => {
      if (endLine !== undefined && endLine < startLine) {
        throw new WorkspaceToolError(
          `end_line (${endLine}) is before start_line (${startLine}); give end_line >= start_line, or leave it out to read to the end.`,
          'invalid_request',
        );
      }
      const guard = WorkspaceGuard.forCall(options, context);
      const { handle, stats, entry } = await guard.openFile(path, 'read');
      const request = { startLine, endLine, maxBytes, signal: context.signal };
      try {
        if (await fileLooksBinary(handle)) {
          throw new WorkspaceToolError(
            `"${path}" is a binary file (${formatBytes(stats.size)}; it holds NUL bytes or is not UTF-8), and read_file reads text only. Inspect it with run_command (e.g. file, xxd) if you must.`,
            'wrong_kind',
          );
        }
        const source = options.fileSystem
          ? textSource(await readThrough(options.fileSystem, path, entry, context))
          : handle;
        const range = await readLineRange(source, request);
        return describeRange(path, range, { startLine, endLine, maxBytes });
      } finally {
        await handle.close();
      }
    },
  });
}

function describeRange(
  path: string,
  range: Awaited<ReturnType<typeof readLineRange>>,
  request: { startLine: number; endLine: number | undefined; maxBytes: number },
): string {
  const { text, totalLines, lastLine } = range;
  if (totalLines === 0) return '(empty file)';
  if (request.startLine > totalLines) {
    throw new WorkspaceToolError(
      `"${path}" has ${totalLines} lines; start_line ${request.startLine} is past its end.`,
      'invalid_request',
    );
  }
  const whole = request.startLine === 1 && lastLine === totalLines && !range.cut;
  if (whole) return text;
  const separator = text.endsWith('\n') ? '' : '\n';
  if (range.lineCut) {
    return `${text}${separator}[line ${lastLine} is longer than ${formatBytes(request.maxBytes)}; only its start is shown. ${totalLines} lines in all.]`;
  }
  const more = lastLine < (request.endLine ?? totalLines) ? `; read on with start_line ${lastLine + 1}` : '';
  const cut = range.cut ? `, cut at ${formatBytes(request.maxBytes)}` : '';
  return `${text}${separator}[lines ${request.startLine}-${lastLine} of ${totalLines}${cut}${more}]`;
}

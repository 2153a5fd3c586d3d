import { defineTool } from '@agentloop/core';
import { z } from 'zod';
import type { DenyList } from './deny-list.js';
import { DEFAULT_DENY_LIST } from './deny-list.js';
import type { OpenWorkspaceFileOptions } from './open-workspace-file.js';
import { openWorkspaceFile } from './open-workspace-file.js';

/** The most bytes `read_file` returns; the rest is cut with a note. */
export const READ_FILE_MAX_BYTES = 64 * 1024;

/** What a `read_file` tool refuses, and hooks for tests. */
export interface ReadFileToolOptions {
  /** Files never read. Default: DEFAULT_DENY_LIST. */
  denyList?: DenyList;
  /** Runs between the check of the path and its opening (see openWorkspaceFile); for tests. */
  beforeOpen?: OpenWorkspaceFileOptions['beforeOpen'];
}

/**
 * A tool that reads a regular text file in the workspace (the first 64 KiB, with a note when it is
 * longer), refusing files on the deny-list, FIFOs, devices and sockets, and a file a link swap led outside.
 */
export function createReadFileTool(options: ReadFileToolOptions = {}) {
  const denyList = options.denyList ?? DEFAULT_DENY_LIST;
  return defineTool({
    name: 'read_file',
    description:
      'Read a text file in the workspace. Paths are relative to the workspace. Long files are cut after 64 KiB. Files that hold secrets (keys, credentials, .env) are refused.',
    parameters: z.object({
      path: z.string().min(1).describe('The file path, relative to the workspace.'),
    }),
    execute: async ({ path }, context) => {
      const { handle, stats } = await openWorkspaceFile(context.workspace, path, {
        denyList,
        ...(options.beforeOpen ? { beforeOpen: options.beforeOpen } : {}),
      });
      try {
        const buffer = Buffer.alloc(Math.min(stats.size, READ_FILE_MAX_BYTES));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        const text = buffer.subarray(0, bytesRead).toString('utf8');
        return stats.size > bytesRead
          ? `${text}\n[cut: the file has ${stats.size} bytes; the first ${bytesRead} are shown]`
          : text;
      } finally {
        await handle.close();
      }
    },
  });
}

/** `read_file` with the default deny-list. */
export const readFileTool = createReadFileTool();

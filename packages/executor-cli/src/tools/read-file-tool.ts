import { open } from 'node:fs/promises';
import { defineTool } from '@agentloop/core';
import { z } from 'zod';
import { workspacePath } from './workspace-path.js';

/** The most bytes `read_file` returns; the rest is cut with a note. */
export const READ_FILE_MAX_BYTES = 64 * 1024;

/** Reads a text file in the workspace (the first 64 KiB, with a note when it is longer). */
export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file in the workspace. Paths are relative to the workspace. Long files are cut after 64 KiB.',
  parameters: z.object({
    path: z.string().min(1).describe('The file path, relative to the workspace.'),
  }),
  execute: async ({ path }, context) => {
    const file = await open(workspacePath(context.workspace, path), 'r');
    try {
      const { size } = await file.stat();
      const buffer = Buffer.alloc(Math.min(size, READ_FILE_MAX_BYTES));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      const text = buffer.subarray(0, bytesRead).toString('utf8');
      return size > bytesRead ? `${text}\n[cut: the file has ${size} bytes; the first ${bytesRead} are shown]` : text;
    } finally {
      await file.close();
    }
  },
});

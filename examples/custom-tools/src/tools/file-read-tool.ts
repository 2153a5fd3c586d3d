import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { defineTool } from '@agentloop/core';
import { z } from 'zod';

/** Reads a text file inside the agent's workspace; paths that leave the workspace are refused. */
export const fileReadTool = defineTool({
  name: 'read_file',
  description: 'Read a text file from the workspace. Paths are relative to the workspace root.',
  parameters: z.object({
    path: z.string().min(1).describe('Path of the file, relative to the workspace'),
    maxBytes: z.number().int().positive().default(20_000).describe('Read at most this many bytes'),
  }),
  execute: async ({ path, maxBytes }, context) => {
    const absolute = resolve(context.workspace, path);
    const inside = relative(context.workspace, absolute);
    if (inside.startsWith('..') || isAbsolute(inside))
      throw new Error(`"${path}" is outside the workspace; use a path inside it.`);
    const content = await readFile(absolute, { encoding: 'utf8', signal: context.signal });
    return content.length > maxBytes
      ? `${content.slice(0, maxBytes)}\n[… ${content.length - maxBytes} more bytes not shown]`
      : content;
  },
});

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTool } from '@agentloop/core';
import { z } from 'zod';
import { workspacePath } from './workspace-path.js';

/** The most entries `list_files` returns. */
export const LIST_FILES_MAX_ENTRIES = 500;

// Directories whose contents are noise to a model reading a project.
const SKIPPED = new Set(['.git', 'node_modules', 'dist', '.turbo']);

/** Lists files in a workspace directory, directories marked with a trailing `/`, optionally recursively. */
export const listFilesTool = defineTool({
  name: 'list_files',
  description:
    'List the files in a workspace directory (directories end with "/"). Recursive listings skip .git, node_modules and dist. At most 500 entries.',
  parameters: z.object({
    path: z.string().default('.').describe('The directory, relative to the workspace. Default: the workspace itself.'),
    recursive: z.boolean().default(false).describe('Also list the contents of subdirectories.'),
  }),
  execute: async ({ path, recursive }, context) => {
    const root = workspacePath(context.workspace, path);
    const entries: string[] = [];
    const pending = [''];
    while (pending.length > 0 && entries.length < LIST_FILES_MAX_ENTRIES) {
      context.signal.throwIfAborted();
      const directory = pending.shift() as string;
      const children = await readdir(join(root, directory), { withFileTypes: true });
      // Code-point order, the same on every machine (localeCompare depends on the locale).
      children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const child of children) {
        const name = join(directory, child.name);
        entries.push(child.isDirectory() ? `${name}/` : name);
        if (recursive && child.isDirectory() && !SKIPPED.has(child.name)) pending.push(name);
      }
    }
    if (entries.length === 0) return '(empty directory)';
    const shown = entries.slice(0, LIST_FILES_MAX_ENTRIES);
    const more =
      entries.length > shown.length || pending.length > 0 ? `\n[cut at ${LIST_FILES_MAX_ENTRIES} entries]` : '';
    return `${shown.join('\n')}${more}`;
  },
});

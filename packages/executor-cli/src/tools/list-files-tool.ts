import { join } from 'node:path';
import { defineTool } from '@agentloop/core';
import { z } from 'zod';
import type { DenyList } from './deny-list.js';
import { DEFAULT_DENY_LIST } from './deny-list.js';
import { readWorkspaceDirectory } from './read-workspace-directory.js';
import { resolveWorkspacePath } from './workspace-path.js';

/** The most entries `list_files` returns. */
export const LIST_FILES_MAX_ENTRIES = 500;

// Directories whose contents are noise to a model reading a project.
const SKIPPED = new Set(['.git', 'node_modules', 'dist', '.turbo']);

/** What a `list_files` tool marks as refused, and how it reads directories. */
export interface ListFilesToolOptions {
  /** Files `read_file` refuses; listed with a mark. Default: DEFAULT_DENY_LIST. */
  denyList?: DenyList;
  /** Whether `/proc/self/fd` names an open directory (see readWorkspaceDirectory). Default: on Linux. */
  procfs?: boolean;
}

/**
 * A tool that lists files in a workspace directory, directories marked with a trailing `/`, optionally
 * recursively. Files on the deny-list are listed, marked `(denied: holds secrets)`, so that the model
 * knows why `read_file` refuses them rather than looking for them elsewhere: a name is not the secret,
 * reading is what the deny-list refuses. A denied directory (`.ssh/`) is still walked for the same
 * reason. Each directory is opened and checked before it is read (readWorkspaceDirectory), so a
 * subdirectory swapped for a link during a recursive listing never lists what is outside the workspace.
 */
export function createListFilesTool(options: ListFilesToolOptions = {}) {
  const denyList = options.denyList ?? DEFAULT_DENY_LIST;
  return defineTool({
    name: 'list_files',
    description:
      'List the files in a workspace directory (directories end with "/"; files that hold secrets are marked and cannot be read). Recursive listings skip .git, node_modules and dist. At most 500 entries.',
    parameters: z.object({
      path: z
        .string()
        .default('.')
        .describe('The directory, relative to the workspace. Default: the workspace itself.'),
      recursive: z.boolean().default(false).describe('Also list the contents of subdirectories.'),
    }),
    execute: async ({ path, recursive }, context) => {
      const { root, real: start, resolved: base } = resolveWorkspacePath(context.workspace, path);
      const entries: string[] = [];
      const pending = [''];
      while (pending.length > 0 && entries.length < LIST_FILES_MAX_ENTRIES) {
        context.signal.throwIfAborted();
        const directory = pending.shift() as string;
        const children = await readWorkspaceDirectory({
          root,
          directory: join(start, directory),
          shown: directory === '' ? path : join(path, directory),
          procfs: options.procfs,
        });
        // Code-point order, the same on every machine (localeCompare depends on the locale).
        children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const child of children) {
          const name = join(directory, child.name);
          const relativePath = base === '.' ? name : `${base}/${name}`;
          const denied =
            denyList.match(relativePath.split('\\').join('/')) === undefined ? '' : ' (denied: holds secrets)';
          entries.push(`${child.isDirectory() ? `${name}/` : name}${denied}`);
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
}

/** `list_files` with the default deny-list. */
export const listFilesTool = createListFilesTool();

import { defineTool } from '@agentloop/tools';
import type { WorkspaceGuardOptions } from '../guard/index.js';
import { WorkspaceGuard } from '../guard/index.js';
import { lazyZodParameters } from '../schema/lazy-zod-parameters.js';
import { pathPattern } from './path-pattern.js';
import { walkWorkspace } from './walk-workspace.js';

/** The most entries one `list_files` call returns; `offset` pages through the rest. */
export const LIST_FILES_PAGE_SIZE = 500;

/** The most entries a listing collects before it stops and says so. */
export const LIST_FILES_MAX_ENTRIES = 20_000;

const LIST_FILES_PARAMETERS = lazyZodParameters(
  {
    type: 'object',
    properties: {
      path: {
        default: '.',
        description: 'The directory, relative to the workspace. Default: the workspace.',
        type: 'string',
      },
      pattern: { description: 'A glob the files must match, e.g. "**/*.ts". Implies recursive.', type: 'string' },
      recursive: { default: false, description: 'Also list the contents of subdirectories.', type: 'boolean' },
      include_ignored: { default: false, description: 'Also list what .gitignore leaves out.', type: 'boolean' },
      offset: {
        default: 0,
        description: 'How many entries to skip, for the next page.',
        type: 'integer',
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
      },
    },
  },
  (z) =>
    z.object({
      path: z.string().default('.').describe('The directory, relative to the workspace. Default: the workspace.'),
      pattern: z.string().optional().describe('A glob the files must match, e.g. "**/*.ts". Implies recursive.'),
      recursive: z.boolean().default(false).describe('Also list the contents of subdirectories.'),
      include_ignored: z.boolean().default(false).describe('Also list what .gitignore leaves out.'),
      offset: z.number().int().min(0).default(0).describe('How many entries to skip, for the next page.'),
    }),
);

/** What a `list_files` tool is confined to. */
export type ListFilesToolOptions = WorkspaceGuardOptions;

/**
 * `list_files`: the files of a workspace directory, directories marked with a trailing `/`, one level or
 * recursively, or those a glob matches; `.gitignore`d entries left out (and counted), `.git` never
 * listed, links never followed. Files on the deny-list are listed, marked `(denied: holds secrets)`, so
 * the model knows why read_file refuses them rather than looking for them elsewhere: a name is not the
 * secret. Paths are shown relative to the workspace, ready for read_file.
 */
export function createListFilesTool(options: ListFilesToolOptions = {}) {
  return defineTool({
    name: 'list_files',
    description: `List files in a workspace directory: one level, recursively, or those matching a glob ("**/*.ts"; a pattern without "/" matches file names at any depth). Paths are relative to the workspace; directories end with "/". Files ignored by .gitignore are left out unless include_ignored is true. At most ${LIST_FILES_PAGE_SIZE} entries a call: use offset for the next page.`,
    parameters: LIST_FILES_PARAMETERS,
    annotations: { readOnly: true, destructive: false, openWorld: false },
    execute: async ({ path, pattern, recursive, include_ignored: includeIgnored, offset }, context) => {
      const guard = WorkspaceGuard.forCall(options, context);
      const matches = pattern === undefined ? undefined : pathPattern(pattern, 'pattern');
      const start = guard.resolve(path);
      const walked = await walkWorkspace({
        guard,
        start,
        recursive: recursive || matches !== undefined,
        includeIgnored,
        maxEntries: LIST_FILES_MAX_ENTRIES,
        signal: context.signal,
      });
      const entries = matches
        ? walked.entries.filter((entry) => entry.kind !== 'directory' && matches(entry.path))
        : walked.entries;
      const page = entries.slice(offset, offset + LIST_FILES_PAGE_SIZE);
      const lines = page.map((entry) => {
        const name = entry.kind === 'directory' ? `${entry.shown}/` : entry.shown;
        return guard.denied(entry.workspacePath) === undefined ? name : `${name} (denied: holds secrets)`;
      });
      const notes: string[] = [];
      if (entries.length === 0) {
        notes.push(matches ? `No files match "${pattern}" in "${path}".` : `"${path}" is empty.`);
      } else if (page.length === 0) {
        notes.push(`offset ${offset} is past the end: there are ${entries.length} entries.`);
      } else if (offset > 0 || page.length < entries.length) {
        const next =
          offset + page.length < entries.length ? `; call again with offset ${offset + page.length} for more` : '';
        notes.push(`[entries ${offset + 1}-${offset + page.length} of ${entries.length}${next}]`);
      }
      if (walked.truncated) {
        notes.push(`[the listing stopped after ${LIST_FILES_MAX_ENTRIES} entries; list a narrower path or pattern]`);
      }
      if (walked.ignored > 0) {
        notes.push(`[${walked.ignored} ignored by .gitignore not shown; include_ignored: true lists them]`);
      }
      return [...lines, ...notes].join('\n');
    },
  });
}

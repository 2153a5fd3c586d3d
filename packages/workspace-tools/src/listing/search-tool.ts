import { stat } from 'node:fs/promises';
import { defineTool } from '@agentloop/tools';
import type { RE2JS } from 're2js';
import { WorkspaceToolError } from '../errors/index.js';
import { formatBytes, looksBinary } from '../files/text-content.js';
import type { WorkspaceGuardOptions } from '../guard/index.js';
import { WorkspaceGuard } from '../guard/index.js';
import { lazyZodParameters } from '../schema/lazy-zod-parameters.js';
import { pathPattern } from './path-pattern.js';
import type { WalkEntry } from './walk-workspace.js';
import { walkWorkspace } from './walk-workspace.js';

/** The most matching lines one `search` call returns; `offset` pages through the rest. */
export const SEARCH_PAGE_SIZE = 100;

/** Files larger than this are not searched (and counted as skipped). */
export const SEARCH_MAX_FILE_BYTES = 2 * 1024 * 1024;

/** The most files a search looks at, and the most matches it counts, before it stops and says so. */
export const SEARCH_MAX_FILES = 20_000;
export const SEARCH_MAX_MATCHES = 10_000;

// A matching line is shown up to this many characters: a minified file's one line is not the answer.
const MAX_LINE_CHARS = 300;

const SEARCH_PARAMETERS = lazyZodParameters(
  {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        description: 'The regular expression to find, e.g. "function\\s+main".',
      },
      path: {
        default: '.',
        description: 'The directory or file to search, relative to the workspace. Default: the workspace.',
        type: 'string',
      },
      glob: {
        description: 'Only files whose path matches this glob, e.g. "*.ts" or "src/**/*.test.ts".',
        type: 'string',
      },
      ignore_case: { default: false, description: 'Match letters of either case.', type: 'boolean' },
      include_ignored: { default: false, description: 'Also search what .gitignore leaves out.', type: 'boolean' },
      offset: {
        default: 0,
        description: 'How many matching lines to skip, for the next page.',
        type: 'integer',
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
      },
    },
    required: ['pattern'],
  },
  (z) =>
    z.object({
      pattern: z.string().min(1).describe('The regular expression to find, e.g. "function\\s+main".'),
      path: z
        .string()
        .default('.')
        .describe('The directory or file to search, relative to the workspace. Default: the workspace.'),
      glob: z
        .string()
        .optional()
        .describe('Only files whose path matches this glob, e.g. "*.ts" or "src/**/*.test.ts".'),
      ignore_case: z.boolean().default(false).describe('Match letters of either case.'),
      include_ignored: z.boolean().default(false).describe('Also search what .gitignore leaves out.'),
      offset: z.number().int().min(0).default(0).describe('How many matching lines to skip, for the next page.'),
    }),
);

/** What a `search` tool is confined to. */
export type SearchToolOptions = WorkspaceGuardOptions;

/**
 * `search`: the lines of workspace files that a regular expression matches, as `path:line: text`,
 * honouring `.gitignore` like list_files, skipping binary files, files larger than SEARCH_MAX_FILE_BYTES
 * and files of the deny-list (whose contents are secrets). The expression is RE2's syntax (re2js), which
 * matches in linear time: a model's pattern with nested repetition cannot hang the agent's process, as
 * it could with JavaScript's backtracking RegExp in a tool that runs on the same thread.
 */
export function createSearchTool(options: SearchToolOptions = {}) {
  return defineTool({
    name: 'search',
    description: `Search the contents of workspace files for a regular expression (RE2 syntax: like JavaScript's, without lookaround or backreferences). Returns matching lines as "path:line: text". Honours .gitignore; skips binary files and files that hold secrets. glob limits the files ("*.ts", "src/**"). At most ${SEARCH_PAGE_SIZE} lines a call: use offset for the next page.`,
    parameters: SEARCH_PARAMETERS,
    annotations: { readOnly: true, destructive: false, openWorld: false },
    execute: async (args, context) => {
      const expression = await compile(args.pattern, args.ignore_case);
      const matchesGlob = args.glob === undefined ? undefined : pathPattern(args.glob, 'glob');
      const guard = WorkspaceGuard.forCall(options, context);
      const files = await filesToSearch(guard, args.path, args.include_ignored, context.signal);
      const selected = matchesGlob ? files.entries.filter((entry) => matchesGlob(entry.path)) : files.entries;
      const found: string[] = [];
      let total = 0;
      const skipped = { denied: 0, binary: 0, large: 0 };
      for (const file of selected) {
        context.signal.throwIfAborted();
        if (total >= SEARCH_MAX_MATCHES) break;
        if (guard.denied(file.workspacePath) !== undefined) {
          skipped.denied += 1;
          continue;
        }
        const text = await readSearchable(guard, file, skipped);
        if (text === undefined) continue;
        const lines = text.split('\n');
        for (let index = 0; index < lines.length && total < SEARCH_MAX_MATCHES; index += 1) {
          const line = (lines[index] as string).replace(/\r$/, '');
          if (!expression.test(line)) continue;
          if (total >= args.offset && found.length < SEARCH_PAGE_SIZE) {
            found.push(`${file.shown}:${index + 1}: ${shorten(line)}`);
          }
          total += 1;
        }
      }
      return [
        ...found,
        ...notes({
          ...args,
          total,
          shown: found.length,
          files: selected.length,
          skipped,
          filesTruncated: files.truncated,
        }),
      ].join('\n');
    },
  });
}

/** re2js (260 KB of code), loaded by the first search: a process that never searches never parses it. */
let loadingRe2: Promise<typeof RE2JS> | undefined;
export function loadRe2(): Promise<typeof RE2JS> {
  loadingRe2 ??= import('re2js').then((module) => module.RE2JS);
  return loadingRe2;
}

async function compile(pattern: string, ignoreCase: boolean): Promise<RE2JS> {
  const RE2JS = await loadRe2();
  try {
    return RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    throw new WorkspaceToolError(
      `pattern is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}. The syntax is RE2's: like JavaScript's, without lookaround or backreferences; escape literal characters such as "(" with "\\\\".`,
      'invalid_request',
      error,
    );
  }
}

// The files under a directory, or the one file the path names.
async function filesToSearch(guard: WorkspaceGuard, path: string, includeIgnored: boolean, signal: AbortSignal) {
  const start = guard.resolve(path);
  const stats = await stat(start.real).catch(() => undefined);
  if (stats?.isFile()) {
    const entry: WalkEntry = { path: start.named, shown: start.named, workspacePath: start.resolved, kind: 'file' };
    return { entries: [entry], truncated: false };
  }
  const walked = await walkWorkspace({
    guard,
    start,
    recursive: true,
    includeIgnored,
    maxEntries: SEARCH_MAX_FILES,
    signal,
  });
  return { entries: walked.entries.filter((entry) => entry.kind === 'file'), truncated: walked.truncated };
}

// A file's text, or undefined (counted) when it is too large or binary. A file that vanished or became a
// link since the walk is passed over: the walk saw it, the search cannot vouch for it.
async function readSearchable(
  guard: WorkspaceGuard,
  file: WalkEntry,
  skipped: { binary: number; large: number },
): Promise<string | undefined> {
  let opened: Awaited<ReturnType<WorkspaceGuard['openFile']>>;
  try {
    opened = await guard.openFile(file.workspacePath, 'read');
  } catch {
    return undefined;
  }
  const { handle, stats } = opened;
  try {
    if (stats.size > SEARCH_MAX_FILE_BYTES) {
      skipped.large += 1;
      return undefined;
    }
    const bytes = await handle.readFile();
    if (looksBinary(bytes.subarray(0, 8192))) {
      skipped.binary += 1;
      return undefined;
    }
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function shorten(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > MAX_LINE_CHARS ? `${trimmed.slice(0, MAX_LINE_CHARS)}…` : trimmed;
}

interface SearchSummary {
  pattern: string;
  path: string;
  offset: number;
  total: number;
  shown: number;
  files: number;
  filesTruncated: boolean;
  skipped: { denied: number; binary: number; large: number };
}

// What follows the matching lines: where this page is, how to get the next, and what was not searched.
function notes(summary: SearchSummary): string[] {
  const { total, shown, offset } = summary;
  const lines: string[] = [];
  if (total === 0) {
    lines.push(`No matches for "${summary.pattern}" in "${summary.path}" (${plural(summary.files, 'file')} searched).`);
  } else if (shown === 0) {
    lines.push(`offset ${offset} is past the end: there are ${total} matching lines.`);
  } else if (offset > 0 || shown < total) {
    const more = offset + shown < total ? `; call again with offset ${offset + shown} for more` : '';
    const atLeast = total >= SEARCH_MAX_MATCHES ? '+' : '';
    lines.push(`[matches ${offset + 1}-${offset + shown} of ${total}${atLeast}${more}]`);
  }
  if (total >= SEARCH_MAX_MATCHES) {
    lines.push(`[the search stopped counting at ${SEARCH_MAX_MATCHES} matches; narrow the pattern, path or glob]`);
  }
  if (summary.filesTruncated) {
    lines.push(`[only the first ${SEARCH_MAX_FILES} files were searched; narrow the path or glob]`);
  }
  const { denied, binary, large } = summary.skipped;
  const passed = [
    denied > 0 ? `${denied} on the deny-list` : '',
    binary > 0 ? `${binary} binary` : '',
    large > 0 ? `${large} larger than ${formatBytes(SEARCH_MAX_FILE_BYTES)}` : '',
  ].filter(Boolean);
  if (passed.length > 0) lines.push(`[files not searched: ${passed.join(', ')}]`);
  return lines;
}

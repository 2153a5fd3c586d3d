import { join } from 'node:path';
import type { WorkspaceEntry, WorkspaceGuard } from '../guard/index.js';
import { GitignoreRules } from './gitignore-rules.js';

/** One entry found by walkWorkspace. */
export interface WalkEntry {
  /** The path relative to the walk's start, `/`-separated. */
  path: string;
  /** The path as the model can use it: under the start as the model named it, `/`-separated. */
  shown: string;
  /** The path relative to the workspace, links resolved, `/`-separated: what rules and the deny-list see. */
  workspacePath: string;
  /** A symbolic link is never followed, so it is a `link`, whatever it points to. */
  kind: 'file' | 'directory' | 'link' | 'other';
}

/** What walkWorkspace walks and how far. */
export interface WalkOptions {
  guard: WorkspaceGuard;
  /** The directory to walk, resolved by the guard. */
  start: WorkspaceEntry;
  /** Into subdirectories too. */
  recursive: boolean;
  /** Also what `.gitignore` (and DEFAULT_IGNORED) leaves out. `.git` is never walked. */
  includeIgnored: boolean;
  /** The most entries to collect; the walk stops there and says so. */
  maxEntries: number;
  signal: AbortSignal;
}

/** What walkWorkspace found. */
export interface WalkResult {
  /** The entries, in code-point order of their paths (the same on every machine). */
  entries: WalkEntry[];
  /** How many entries `.gitignore` left out (ignored folders count once, their contents not at all). */
  ignored: number;
  /** True when the walk stopped at `maxEntries`. */
  truncated: boolean;
}

/**
 * Walks a workspace directory, honouring `.gitignore` and never following a symbolic link, so a walk
 * neither loops nor leaves the workspace. Each directory is opened and checked before it is read
 * (WorkspaceGuard.readDirectory), so one swapped for a link during the walk is refused, not followed.
 * Throws a WorkspaceToolError for the start directory; cancels with the signal.
 */
export async function walkWorkspace(options: WalkOptions): Promise<WalkResult> {
  const { guard, start } = options;
  const rules = new GitignoreRules(guard);
  const base = start.resolved === '.' ? '' : start.resolved;
  if (!options.includeIgnored) await rules.loadAncestors(base);
  const entries: WalkEntry[] = [];
  let ignored = 0;
  const pending = [''];
  walk: while (pending.length > 0) {
    options.signal.throwIfAborted();
    const directory = pending.shift() as string;
    const shownDirectory = under(start.named, directory);
    const children = await guard.readDirectory(start.root, join(start.real, directory), shownDirectory);
    const folder = [base, directory].filter((part) => part !== '').join('/');
    if (!options.includeIgnored && directory !== '' && children.some((child) => child.name === '.gitignore')) {
      await rules.load(folder);
    }
    for (const child of children) {
      if (child.name === '.git') continue;
      const path = joinPath(directory, child.name);
      const kind = child.isSymbolicLink()
        ? 'link'
        : child.isDirectory()
          ? 'directory'
          : child.isFile()
            ? 'file'
            : 'other';
      const workspacePath = joinPath(folder, child.name);
      if (!options.includeIgnored && rules.ignores(workspacePath, kind === 'directory')) {
        ignored += 1;
        continue;
      }
      if (entries.length >= options.maxEntries) {
        entries.sort(byPath);
        return { entries, ignored, truncated: true };
      }
      entries.push({ path, shown: under(start.named, path), workspacePath, kind });
      if (options.recursive && kind === 'directory') pending.push(path);
      if (options.signal.aborted) break walk;
    }
  }
  options.signal.throwIfAborted();
  entries.sort(byPath);
  return { entries, ignored, truncated: false };
}

function joinPath(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

// `.` (the start itself) and `` both mean "no folder".
function under(folder: string, path: string): string {
  if (folder === '' || folder === '.') return path === '' ? '.' : path;
  return path === '' ? folder : `${folder}/${path}`;
}

// Folder by folder, each name in code-point order (localeCompare depends on the locale): `src/a.ts` comes
// right after `src`, before `src-old`.
function byPath(a: WalkEntry, b: WalkEntry): number {
  return comparePaths(a.path, b.path);
}

/** Compares `/`-separated paths folder by folder, names in code-point order. */
export function comparePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const x = left[index] as string;
    const y = right[index] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

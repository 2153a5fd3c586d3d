import { type LazyLibrary, lazyLibrary } from '@agentloop/tools/internal';
import type ignoreType from 'ignore';
import type { Ignore } from 'ignore';
import type { WorkspaceGuard } from '../guard/index.js';

/**
 * `ignore`, loaded by the first listing or search or by `preloadWorkspaceTools()`: a process that never
 * lists a folder never loads it (nor waits for it at start-up). The preload imports it, which an app's
 * bundler follows.
 */
export const ignoreLibrary: LazyLibrary<typeof ignoreType> = lazyLibrary<typeof ignoreType>({
  name: 'ignore',
  from: import.meta.url,
  load: async () => (await import('ignore')).default,
  prepare: 'await preloadWorkspaceTools()',
});

/** `ignore`, for the synchronous rules. */
export function loadIgnore(): typeof ignoreType {
  return ignoreLibrary.get();
}

function ignore(): Ignore {
  return loadIgnore()();
}

/** Folders left out of listings and searches like ignored ones, also where no `.gitignore` names them. */
export const DEFAULT_IGNORED: readonly string[] = ['node_modules/'];

// A `.gitignore` larger than this is not a list of patterns anyone wrote; it is skipped.
const MAX_GITIGNORE_BYTES = 1024 * 1024;

/**
 * The `.gitignore` files of the workspace, each applying to the folder it is in and below it, a deeper
 * file's rules (`!keep.log` too) overriding a shallower one's, as git does. Read through the guard, so a
 * `.gitignore` that is a link out of the workspace is never read. Not covered: `.git/info/exclude`, the
 * user's global excludes file, and `.gitignore` files above the workspace.
 */
export class GitignoreRules {
  readonly #levels = new Map<string, Ignore>();
  readonly #guard: WorkspaceGuard;

  constructor(guard: WorkspaceGuard) {
    this.#guard = guard;
    this.#levels.set('', ignore().add([...DEFAULT_IGNORED]));
  }

  /** Reads the `.gitignore` of a folder (workspace-relative, `/`-separated, `` for the root), if it has one. */
  async load(folder: string): Promise<void> {
    const path = folder === '' ? '.gitignore' : `${folder}/.gitignore`;
    let text: string;
    try {
      const { handle, stats } = await this.#guard.openFile(path, 'read');
      try {
        if (stats.size > MAX_GITIGNORE_BYTES) return;
        text = (await handle.readFile()).toString('utf8');
      } finally {
        await handle.close();
      }
    } catch {
      return; // missing, not a file, or refused: no rules from it
    }
    const level = this.#levels.get(folder) ?? ignore();
    this.#levels.set(folder, level.add(text));
  }

  /** Reads the `.gitignore` files of `folder`'s ancestors and of `folder` itself, from the root down. */
  async loadAncestors(folder: string): Promise<void> {
    const parts = folder === '' || folder === '.' ? [] : folder.split('/');
    for (let depth = 0; depth <= parts.length; depth += 1) await this.load(parts.slice(0, depth).join('/'));
  }

  /** True when git would ignore a workspace-relative path (`/`-separated). */
  ignores(path: string, isDirectory: boolean): boolean {
    let ignored = false;
    const parts = path.split('/');
    for (let depth = 0; depth < parts.length; depth += 1) {
      const level = this.#levels.get(parts.slice(0, depth).join('/'));
      if (level === undefined) continue;
      const below = parts.slice(depth).join('/');
      const result = level.test(isDirectory ? `${below}/` : below);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}

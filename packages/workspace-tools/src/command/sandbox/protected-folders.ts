import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Folders of the workspace that stay read-only in `workspace-write`: git's data (a hook written there would
 * run the next time the user runs git, outside the sandbox) and agentloop's settings (a change would take
 * effect at agentloop's next start).
 */
const PROTECTED_NAMES = new Set(['.git', '.agentloop']);

/** Folders not searched for nested repositories: dependencies, which hold none a user commits in. */
const NOT_SEARCHED = new Set(['node_modules']);

/** How deep and how wide the search goes, so that a huge workspace does not slow every command. */
const MAX_DEPTH = 4;
const MAX_FOLDERS = 5_000;

/**
 * The `.git` and `.agentloop` entries of the workspace (files too: a submodule's `.git` is a file), its own
 * and those of nested repositories and projects, found by a bounded walk that never follows links. The
 * workspace's own are always found; one deeper than the walk goes, or in a folder past its limit, is not.
 */
export function protectedFolders(workspace: string): string[] {
  const found: string[] = [];
  let level = [workspace];
  let searched = 0;
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      if (searched++ >= MAX_FOLDERS) return found;
      let entries: Dirent[];
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const path = join(folder, entry.name);
        // A link is left out: bubblewrap would mount on where it leads, and fail every command on a
        // dangling one; the file tools refuse writes through it anyway.
        if (PROTECTED_NAMES.has(entry.name.toLowerCase())) {
          if (entry.isDirectory() || entry.isFile()) found.push(path);
        } else if (entry.isDirectory() && !NOT_SEARCHED.has(entry.name)) next.push(path);
      }
    }
    level = next;
  }
  return found;
}

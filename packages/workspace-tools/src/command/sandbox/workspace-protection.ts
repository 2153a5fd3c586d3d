import { accessSync, constants, existsSync, readdirSync, realpathSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { ProtectedScan } from './protected-entries.js';
import { scanProtectedEntries } from './protected-entries.js';

/**
 * How a `workspace-write` sandbox keeps what the host acts on out of a command's reach, decided before it
 * runs and checked after.
 */
export interface WorkspaceProtection {
  /** The workspace, absolute, links resolved. */
  workspace: string;
  /** Entries with a protected name that exist, bound read-only (a link's target inside the workspace). */
  readOnly: string[];
  /**
   * The workspace's own `.git` where there is none: covered while the command runs by an empty read-only
   * folder, so that no repository can be made where the user's git, editor and prompt look first.
   */
  placeholders: string[];
  /** The scan before the command ran. */
  before: ProtectedScan;
  /** The writable paths the user gave: what is inside them is theirs to allow. */
  writablePaths: readonly string[];
}

/** What the check after a command found and undid. */
export interface ProtectionCheck {
  /** Entries the command made or replaced, removed: workspace-relative paths. */
  removed: string[];
  /** False when the workspace has more folders than a scan reads: some were not checked. */
  complete: boolean;
}

/** The placeholders of commands running now in this process, by path, counted: commands may run at once. */
const livePlaceholders = new Map<string, number>();

/**
 * Plans the protection of a workspace for one command: every existing entry with a protected name
 * (scanProtectedEntries, any depth) read-only, and an empty read-only `.git` where the workspace has none.
 * Call `releaseProtection` when the command has ended, after `checkProtection`.
 */
export function protectWorkspace(workspace: string, writablePaths: readonly string[]): WorkspaceProtection {
  const before = scanProtectedEntries(workspace);
  const readOnly: string[] = [];
  for (const entry of before.entries.values()) {
    if (livePlaceholders.has(entry.path)) continue;
    if (entry.kind === 'directory' || entry.kind === 'file') readOnly.push(entry.path);
    else if (entry.kind === 'link') {
      // bubblewrap mounts on where a link leads: a `.git` that leads to a folder of the workspace is
      // protected there (one that leads outside is read-only with the rest of the file system).
      const target = targetInside(entry.path, workspace);
      if (target !== undefined) readOnly.push(target);
    }
  }
  const placeholders: string[] = [];
  const git = join(workspace, '.git');
  if ((livePlaceholders.has(git) || !existsSync(git)) && !inside(git, writablePaths) && writable(workspace)) {
    placeholders.push(git);
    livePlaceholders.set(git, (livePlaceholders.get(git) ?? 0) + 1);
  }
  return { workspace, readOnly, placeholders, before, writablePaths };
}

/**
 * After the command: every entry with a protected name that it made or replaced (not there before, or a
 * different file now) is removed, wherever it is, but in the user's writable paths. A placeholder is
 * expected to be the empty folder it was. Never throws; an entry that cannot be removed is left.
 */
export function checkProtection(protection: WorkspaceProtection): ProtectionCheck {
  const { before, workspace } = protection;
  const after = scanProtectedEntries(workspace);
  const removed: string[] = [];
  for (const entry of after.entries.values()) {
    if (inside(entry.path, protection.writablePaths)) continue;
    if (protection.placeholders.includes(entry.path) || livePlaceholders.has(entry.path)) {
      if (entry.kind === 'directory' && isEmptyFolder(entry.path)) continue;
    } else {
      const was = before.entries.get(entry.path);
      if (was && was.inode === entry.inode && was.kind === entry.kind) continue;
      // Past the first scan's limit an entry may be old: only what is in a folder it read is judged.
      if (!was && !before.complete && !before.searched.has(dirname(entry.path))) continue;
    }
    try {
      rmSync(entry.path, { recursive: true, force: true });
      removed.push(relative(workspace, entry.path));
    } catch {
      // Left where it is; the next command's scan binds it read-only.
    }
  }
  return { removed: removed.sort(), complete: before.complete && after.complete };
}

/** Ends a command's protection: its placeholders are removed once no other command uses them. */
export function releaseProtection(protection: WorkspaceProtection): void {
  for (const path of protection.placeholders) {
    const users = (livePlaceholders.get(path) ?? 1) - 1;
    if (users > 0) {
      livePlaceholders.set(path, users);
      continue;
    }
    livePlaceholders.delete(path);
    try {
      // rmdir removes only an empty folder: one that something outside filled meanwhile stays.
      rmdirSync(path);
    } catch {
      // Gone already, or not empty.
    }
  }
}

function inside(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep));
}

function targetInside(link: string, workspace: string): string | undefined {
  try {
    const target = realpathSync(link);
    return target !== workspace && inside(target, [workspace]) ? target : undefined;
  } catch {
    return undefined;
  }
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function isEmptyFolder(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

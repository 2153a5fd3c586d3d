import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HOST_CONFIG_NAMES } from '../../guard/index.js';

/**
 * Names that programs outside the sandbox act on when they meet them in a folder: git's data (a hook or a
 * `core.fsmonitor` written there runs the next time the user runs git), agentloop's settings (they take
 * effect at its next start) and the other host configuration the file tools never write either.
 */
export const PROTECTED_NAMES: ReadonlySet<string> = new Set(['.git', '.agentloop', ...HOST_CONFIG_NAMES]);

/** Folders not searched: dependencies, which hold nothing a user runs git or an editor in. */
const NOT_SEARCHED = new Set(['node_modules']);

/** How many folders a scan reads at most, so that a huge workspace does not stall every command. */
export const MAX_SCANNED_FOLDERS = 20_000;

/** One entry with a protected name, as it was when scanned. */
export interface ProtectedEntry {
  /** Absolute. */
  path: string;
  kind: 'directory' | 'file' | 'link' | 'other';
  /** Its inode: a different one at the same path is a replaced entry. */
  inode: number;
}

/** What a scan found, and how far it got. */
export interface ProtectedScan {
  /** The entries with a protected name, by absolute path. */
  entries: Map<string, ProtectedEntry>;
  /** The folders whose entries were read. */
  searched: Set<string>;
  /** False when the scan stopped at MAX_SCANNED_FOLDERS: folders past it were not read. */
  complete: boolean;
}

/**
 * The entries of the workspace with a protected name (PROTECTED_NAMES, case ignored), at any depth, found by
 * a walk that never follows links, does not enter what it finds nor `node_modules`, and stops after
 * `maxFolders` folders. Never throws: a folder that cannot be read is left out.
 */
export function scanProtectedEntries(workspace: string, maxFolders = MAX_SCANNED_FOLDERS): ProtectedScan {
  const entries = new Map<string, ProtectedEntry>();
  const searched = new Set<string>();
  const queue = [workspace];
  for (let index = 0; index < queue.length; index++) {
    if (searched.size >= maxFolders) return { entries, searched, complete: false };
    const folder = queue[index] as string;
    let children: Dirent[];
    try {
      children = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    searched.add(folder);
    for (const child of children) {
      const path = join(folder, child.name);
      if (PROTECTED_NAMES.has(child.name.toLowerCase())) {
        const found = describe(path);
        if (found) entries.set(path, found);
      } else if (child.isDirectory() && !NOT_SEARCHED.has(child.name)) queue.push(path);
    }
  }
  return { entries, searched, complete: true };
}

function describe(path: string): ProtectedEntry | undefined {
  try {
    const stats = lstatSync(path);
    const kind = stats.isDirectory()
      ? 'directory'
      : stats.isFile()
        ? 'file'
        : stats.isSymbolicLink()
          ? 'link'
          : 'other';
    return { path, kind, inode: stats.ino };
  } catch {
    return undefined;
  }
}

import { constants, type Stats } from 'node:fs';
import { type FileHandle, mkdir, open, readlink, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { WorkspaceToolError } from '../errors/index.js';
import { refuseAgentloopSettings } from './agentloop-settings.js';
import type { DenyList } from './deny-list.js';
import { refuseGitInternals } from './git-internals.js';
import { refuseHostConfig } from './host-config.js';
import { isInside, relativeToRoot, resolveWorkspacePath, type WorkspaceEntry } from './workspace-path.js';

/** A regular file of the workspace, open. */
export interface OpenedFile {
  handle: FileHandle;
  /** The open file's status (fstat). */
  stats: Stats;
  /** The path as checked: relative to the workspace, as named and with links resolved. */
  entry: WorkspaceEntry;
  /** True when the open created the file (access `create` and no file was there). */
  created: boolean;
}

/** What a file is opened for: reading, writing an existing file, or writing one created if missing. */
export type FileAccess = 'read' | 'write' | 'create';

/** How openWorkspaceFile checks and opens. */
export interface OpenWorkspaceFileOptions {
  /** Files never read or written. */
  denyList: DenyList;
  /** What the file is opened for. Default: `read`. */
  access?: FileAccess;
  /** Whether `/proc/self/fd` names an open file (Linux). Default: whether the platform is Linux. */
  procfs?: boolean | undefined;
}

// Not following a link at the last step and not waiting for a writer: a FIFO opened without O_NONBLOCK
// blocks `open()` in one of libuv's four threads until someone writes, and four of them hang every file
// operation of the process. Windows has neither flag (nor FIFOs of this kind). Writes open read-write and
// never truncate: nothing is changed before the open file has been checked.
const SAFE = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const OPEN_FLAGS: Record<FileAccess, number> = {
  read: constants.O_RDONLY | SAFE,
  write: constants.O_RDWR | SAFE,
  create: constants.O_RDWR | constants.O_CREAT | SAFE,
};

/**
 * Opens a file the model named, if it is a regular file inside the workspace and not on the deny-list;
 * for writing, also not in `.git` and not a file with other hard links (which may be outside). Checking a
 * path and then opening it leaves a window in which a directory on the way can be swapped for a link to
 * elsewhere, so the file is opened without following a link at its last step, and what was opened is
 * checked again through its descriptor (see assertOpenedInside) before anything is read or written.
 * Throws a WorkspaceToolError the model sees as the tool's error result.
 */
export async function openWorkspaceFile(
  workspace: string,
  path: string,
  options: OpenWorkspaceFileOptions,
): Promise<OpenedFile> {
  const access = options.access ?? 'read';
  const entry = resolveWorkspacePath(workspace, path);
  refuseDenied(path, entry.named, options.denyList);
  refuseDenied(path, entry.resolved, options.denyList);
  if (access !== 'read') {
    refuseGitInternals(path, entry.named);
    refuseGitInternals(path, entry.resolved);
    refuseAgentloopSettings(path, entry.named);
    refuseAgentloopSettings(path, entry.resolved);
    refuseHostConfig(path, entry.named);
    refuseHostConfig(path, entry.resolved);
  }
  if (access === 'create') await makeParents(path, entry);
  const existed =
    access === 'create'
      ? await stat(entry.real).then(
          () => true,
          () => false,
        )
      : true;
  let handle: FileHandle;
  try {
    handle = await open(entry.real, OPEN_FLAGS[access], 0o666);
  } catch (error) {
    throw openFailure(path, error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(path, kindOf(stats));
    await assertOpenedInside(handle, stats, {
      workspace,
      path,
      denyList: options.denyList,
      access,
      procfs: options.procfs,
    });
    if (access !== 'read' && stats.nlink > 1) {
      throw new WorkspaceToolError(
        `"${path}" has ${stats.nlink} hard links: writing it would change the same file under its other names, which may be outside the workspace. It was not written.`,
        'wrong_kind',
      );
    }
    return { handle, stats, entry, created: !existed };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** What assertOpenedInside checks an open file against. */
export interface OpenedFileCheck {
  workspace: string;
  /** The path the model gave. */
  path: string;
  denyList: DenyList;
  /** What the file was opened for: a write also refuses `.git`. Default: `read`. */
  access?: FileAccess | undefined;
  /** Whether `/proc/self/fd` names an open file. Default: whether the platform is Linux. */
  procfs?: boolean | undefined;
}

/**
 * Throws unless the open file is inside the workspace, not on the deny-list, and (for a write) not in
 * `.git`. On Linux the kernel names the file behind the descriptor (`/proc/self/fd/N`), which no later
 * swap can change. Elsewhere the path is resolved again and the file found there must be the one open
 * (same device and inode): a swap before the open leaves either a path that now leads outside or a
 * different file at the inside path.
 */
export async function assertOpenedInside(handle: FileHandle, opened: Stats, check: OpenedFileCheck): Promise<void> {
  const { workspace, path, denyList } = check;
  const refuse = (relativePath: string) => {
    refuseDenied(path, relativePath, denyList);
    if ((check.access ?? 'read') !== 'read') {
      refuseGitInternals(path, relativePath);
      refuseAgentloopSettings(path, relativePath);
      refuseHostConfig(path, relativePath);
    }
  };
  if (check.procfs ?? process.platform === 'linux') {
    const target = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (target !== undefined) {
      const { root } = resolveWorkspacePath(workspace, '.');
      if (!isInside(root, target)) throw changedWhileOpening(path);
      refuse(relativeToRoot(root, target));
      return;
    }
  }
  let again: WorkspaceEntry;
  try {
    again = resolveWorkspacePath(workspace, path);
  } catch {
    throw changedWhileOpening(path);
  }
  refuse(again.resolved);
  const current = await stat(again.real).catch(() => undefined);
  if (current?.dev !== opened.dev || current.ino !== opened.ino) throw changedWhileOpening(path);
}

/** Throws a WorkspaceToolError (`denied_file`) when the deny-list names the path. */
export function refuseDenied(path: string, relativePath: string, denyList: DenyList): void {
  const pattern = denyList.match(relativePath);
  if (pattern === undefined) return;
  const allow = denyList.howToAllow?.(relativePath);
  throw new WorkspaceToolError(
    `"${path}" is on the deny-list of files that hold secrets (it matches "${pattern}"), so it is not read or written.${allow ? ` ${allow}` : ''}`,
    'denied_file',
  );
}

// The folders of a new file. They are made where the checked path leads; were a folder on the way
// swapped for a link meanwhile, the open file's check still refuses to write through it.
async function makeParents(path: string, entry: WorkspaceEntry): Promise<void> {
  try {
    await mkdir(dirname(entry.real), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new WorkspaceToolError(
        `"${path}" cannot be created: a part of its folder path is a file, not a folder.`,
        'wrong_kind',
        error,
      );
    }
    throw error;
  }
}

function openFailure(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  // ELOOP: the last step became a link after the check; ENXIO: a Unix socket, which cannot be opened.
  if (code === 'ELOOP') return changedWhileOpening(path);
  if (code === 'ENXIO') return notRegular(path, 'a socket');
  if (code === 'EISDIR') return notRegular(path, 'a directory: list it with list_files');
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new WorkspaceToolError(
      `"${path}" does not exist; list_files shows what is there (paths are relative to the workspace).`,
      'not_found',
      error,
    );
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new WorkspaceToolError(`"${path}" cannot be opened: permission denied (${code}).`, 'wrong_kind', error);
  }
  return error;
}

function changedWhileOpening(path: string): WorkspaceToolError {
  return new WorkspaceToolError(
    `"${path}" changed while it was being opened (a link now leads elsewhere); it was not read or written.`,
    'changed_while_opening',
  );
}

function notRegular(path: string, kind: string): WorkspaceToolError {
  return new WorkspaceToolError(
    `"${path}" is not a regular file (${kind}); these tools read and write regular files only.`,
    'wrong_kind',
  );
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory: list it with list_files';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a plain file';
}

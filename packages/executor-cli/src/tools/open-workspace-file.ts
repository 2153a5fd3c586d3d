import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readlink, stat } from 'node:fs/promises';
import type { DenyList } from './deny-list.js';
import { isInside, resolveWorkspacePath, type WorkspaceEntry } from './workspace-path.js';

/** A regular file of the workspace, open for reading. */
export interface OpenedFile {
  handle: FileHandle;
  /** The open file's status (fstat). */
  stats: Stats;
}

/** How openWorkspaceFile checks and opens. */
export interface OpenWorkspaceFileOptions {
  /** Files never read. */
  denyList: DenyList;
  /** Runs between the check of the path and its opening; tests swap files there. */
  beforeOpen?: () => void | Promise<void>;
  /** Whether `/proc/self/fd` names an open file (Linux). Default: whether the platform is Linux. */
  procfs?: boolean;
}

// Not following a link at the last step and not waiting for a writer: a FIFO opened without O_NONBLOCK
// blocks `open()` in one of libuv's four threads until someone writes, and four of them hang every file
// operation of the process. Windows has neither flag (nor FIFOs of this kind).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Opens a file the model named for reading, if it is a regular file inside the workspace and not on the
 * deny-list. Checking a path and then opening it leaves a window in which a directory on the way can be
 * swapped for a link to elsewhere, so the file is opened without following a link at its last step, and
 * what was opened is checked again through its descriptor (see assertOpenedInside) before anything is
 * read. Throws an Error the model sees as the tool's error result.
 */
export async function openWorkspaceFile(
  workspace: string,
  path: string,
  options: OpenWorkspaceFileOptions,
): Promise<OpenedFile> {
  const entry = resolveWorkspacePath(workspace, path);
  refuseDenied(path, entry.named, options.denyList);
  refuseDenied(path, entry.resolved, options.denyList);
  await options.beforeOpen?.();
  let handle: FileHandle;
  try {
    handle = await open(entry.real, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the last step became a link after the check; ENXIO: a Unix socket, which cannot be opened.
    if (code === 'ELOOP') throw changedWhileOpening(path);
    if (code === 'ENXIO') throw notRegular(path, 'a socket');
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(path, kindOf(stats));
    await assertOpenedInside(handle, stats, { workspace, path, denyList: options.denyList, procfs: options.procfs });
    return { handle, stats };
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
  /** Whether `/proc/self/fd` names an open file. Default: whether the platform is Linux. */
  procfs?: boolean | undefined;
}

/**
 * Throws unless the open file is inside the workspace and not on the deny-list. On Linux the kernel
 * names the file behind the descriptor (`/proc/self/fd/N`), which no later swap can change. Elsewhere the
 * path is resolved again and the file found there must be the one open (same device and inode): a swap
 * before the open leaves either a path that now leads outside or a different file at the inside path.
 */
export async function assertOpenedInside(handle: FileHandle, opened: Stats, check: OpenedFileCheck): Promise<void> {
  const { workspace, path, denyList } = check;
  if (check.procfs ?? process.platform === 'linux') {
    const target = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (target !== undefined) {
      const entry = resolveWorkspacePath(workspace, '.');
      if (!isInside(entry.root, target)) throw changedWhileOpening(path);
      refuseDenied(path, resolveWorkspacePath(workspace, target).resolved, denyList);
      return;
    }
  }
  let again: WorkspaceEntry;
  try {
    again = resolveWorkspacePath(workspace, path);
  } catch {
    throw changedWhileOpening(path);
  }
  refuseDenied(path, again.resolved, denyList);
  const current = await stat(again.real).catch(() => undefined);
  if (current?.dev !== opened.dev || current.ino !== opened.ino) throw changedWhileOpening(path);
}

function refuseDenied(path: string, relativePath: string, denyList: DenyList): void {
  const pattern = denyList.match(relativePath);
  if (pattern === undefined) return;
  throw new Error(
    `"${path}" is on the deny-list of files that hold secrets (it matches "${pattern}"), so it is not read. The user can allow it with allow = ["${relativePath}"] under [tools] in their user configuration (agentloop config path shows where).`,
  );
}

function changedWhileOpening(path: string): Error {
  return new Error(`"${path}" changed while it was being opened (a link now leads elsewhere); it was not read.`);
}

function notRegular(path: string, kind: string): Error {
  return new Error(`"${path}" is not a regular file (${kind}); read_file reads regular files only.`);
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory: list it with list_files';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a plain file';
}

import { constants, type Dirent } from 'node:fs';
import { type FileHandle, lstat, open, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { WorkspaceToolError } from '../errors/index.js';
import { isInside } from './workspace-path.js';

/** How readWorkspaceDirectory reads. */
export interface ReadWorkspaceDirectoryOptions {
  /** The workspace directory, absolute, links resolved: nothing outside it is listed. */
  root: string;
  /** The directory to read, absolute, inside `root` when it was checked. */
  directory: string;
  /** The directory as the model knows it, for messages. */
  shown: string;
  /** Whether `/proc/self/fd` names an open file (Linux). Default: whether the platform is Linux. */
  procfs?: boolean | undefined;
}

// A directory only (O_DIRECTORY), not through a link at the last step (O_NOFOLLOW), and never waiting
// (O_NONBLOCK: a FIFO put in the directory's place must not hold one of libuv's threads). Windows has
// none of these flags.
const DIRECTORY_FLAGS =
  constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The entries of a workspace directory, read so that a directory swapped for a link to elsewhere while
 * a listing or a search walks the tree is not listed. Reading by path would follow such a link: the check of the
 * path and the read are two steps, and a recursive listing reads each subdirectory by a path built from
 * its parent's listing. So the directory is opened first, without following a link at its last step, and
 * what is listed is what was opened:
 *
 * - On Linux, the descriptor's name (`/proc/self/fd/N`, which the kernel keeps, whatever happens to the
 *   path) must be inside the workspace — a directory on the way swapped for a link shows there — and the
 *   entries are read through that name, which reaches the open directory itself, not a path again.
 * - Elsewhere, the entries are read by path, and afterwards the path must still lead, inside the
 *   workspace, to the directory that was opened (same device and inode); otherwise the listing is
 *   dropped. A swap made and undone while the entries are read could still pass: no portable API reads
 *   a directory from a descriptor in Node.
 *
 * Throws a WorkspaceToolError the model sees as the tool's error result.
 */
export async function readWorkspaceDirectory(options: ReadWorkspaceDirectoryOptions): Promise<Dirent[]> {
  const { root, directory, shown } = options;
  let handle: FileHandle;
  try {
    handle = await open(directory, DIRECTORY_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // The last step is a link now, though it was a directory when its parent was read: ELOOP, or ENOTDIR
    // on Linux, which checks O_DIRECTORY against the link itself. Asked after the fact, only to word it.
    const link = await lstat(directory).then(
      (stats) => stats.isSymbolicLink(),
      () => false,
    );
    if (code === 'ELOOP' || (code === 'ENOTDIR' && link)) throw changedWhileListing(shown);
    if (code === 'ENOTDIR') {
      throw new WorkspaceToolError(`"${shown}" is not a directory; read a file with read_file.`, 'wrong_kind');
    }
    if (code === 'ENOENT') {
      throw new WorkspaceToolError(
        `"${shown}" does not exist; list the folder above it to see what is there.`,
        'not_found',
        error,
      );
    }
    throw error;
  }
  try {
    if (options.procfs ?? process.platform === 'linux') {
      const named = `/proc/self/fd/${handle.fd}`;
      const target = await readlink(named).catch(() => undefined);
      if (target !== undefined) {
        if (!isInside(root, target)) throw changedWhileListing(shown);
        return await readdir(named, { withFileTypes: true });
      }
    }
    const opened = await handle.stat();
    const children = await readdir(directory, { withFileTypes: true });
    const real = await realpath(directory).catch(() => undefined);
    const current = real === undefined ? undefined : await stat(real).catch(() => undefined);
    if (real === undefined || !isInside(root, real) || current?.dev !== opened.dev || current.ino !== opened.ino)
      throw changedWhileListing(shown);
    return children;
  } finally {
    await handle.close();
  }
}

function changedWhileListing(shown: string): WorkspaceToolError {
  return new WorkspaceToolError(
    `"${shown}" changed while it was being listed (a link now leads elsewhere); it was not listed. List it again.`,
    'changed_while_opening',
  );
}

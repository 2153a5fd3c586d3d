import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

// Session data holds whole conversations: file contents, command output, what the user typed. Like the
// command history and the configuration, it is for its owner alone.

/** The mode of a folder a store makes. */
export const PRIVATE_FOLDER_MODE = 0o700;

/** The mode of a file a store makes. */
export const PRIVATE_FILE_MODE = 0o600;

/** Takes the group's and others' access away from a file a store owns; an earlier version made them 0644. */
export function makePrivateSync(file: string): void {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((mode & 0o077) !== 0) chmodSync(file, mode & PRIVATE_FILE_MODE);
}

/** `makePrivateSync` for a file the store has open. */
export async function makeHandlePrivate(handle: FileHandle): Promise<void> {
  const { mode } = await handle.stat();
  if ((mode & 0o077) !== 0) await handle.chmod(mode & PRIVATE_FILE_MODE);
}

/** Creates a file, empty and private, unless it exists. */
export function createPrivateFileSync(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
}

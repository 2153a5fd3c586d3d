import { open } from 'node:fs/promises';

/**
 * Syncs a folder, so that a file just created in it survives a power cut. Platforms that cannot open a
 * folder for syncing (Windows) keep their folders' entries safe by themselves; there it does nothing.
 */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // EISDIR, EPERM or EINVAL where folders cannot be synced: nothing more can be done there.
  } finally {
    await handle?.close().catch(() => {});
  }
}

import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { SessionStoreError } from '@agentloop/memory';
import type { SessionWriter } from '../lock/session-writer.js';
import { isWriterLive, parseWriter, sessionLocked } from '../lock/session-writer.js';
import { PRIVATE_FILE_MODE } from '../private-files.js';

/**
 * A session's write lock in the JSON lines store: a file beside the session's, holding its writer as JSON.
 * It is made whole under a temporary name and linked into place, which fails when the name exists: so a
 * lock file is never seen half written, and of two writers only one gets it. A lock whose process is gone
 * (killed, crashed) is taken over.
 */
export async function acquireLockFile(
  path: string,
  sessionId: string,
  writer: SessionWriter,
  now: number = Date.now(),
): Promise<void> {
  const temporary = `${path}.${writer.token}.tmp`;
  await writeFile(temporary, JSON.stringify(writer), { mode: PRIVATE_FILE_MODE });
  try {
    // A few rounds: a lock may vanish between a failed link and its read (its writer released it).
    for (let round = 0; round < 5; round++) {
      try {
        await link(temporary, path);
        return;
      } catch (error) {
        if (!isCode(error, 'EEXIST')) throw error;
      }
      const holder = await readLockFile(path);
      if (holder === 'missing') continue;
      if (holder !== 'damaged' && isWriterLive(holder, now)) throw sessionLocked(sessionId, holder, `delete ${path}`);
      await takeOver(path, holder, writer);
    }
    throw new SessionStoreError(
      `Session ${sessionId} could not be locked: its lock (${path}) keeps changing hands. Try again.`,
      { code: 'session_locked', sessionId },
    );
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

/** Removes the lock when `writer` holds it; leaves another writer's lock alone. */
export async function releaseLockFile(path: string, writer: SessionWriter): Promise<void> {
  const holder = await readLockFile(path);
  if (typeof holder === 'object' && holder.token === writer.token) await unlink(path).catch(() => {});
}

/**
 * Extends `writer`'s lease to `leaseUntil` while it still holds the lock; false when it does not (another
 * writer took a lock it judged stale, or the lock was removed). The new lock is written whole under a
 * temporary name and renamed over the old, so a reader never sees it half written.
 */
export async function renewLockFile(path: string, writer: SessionWriter, leaseUntil: number): Promise<boolean> {
  const holder = await readLockFile(path);
  if (typeof holder !== 'object' || holder.token !== writer.token) return false;
  const temporary = `${path}.${writer.token}.renew`;
  try {
    await writeFile(temporary, JSON.stringify({ ...writer, leaseUntil }), { mode: PRIVATE_FILE_MODE });
    await rename(temporary, path);
  } finally {
    await unlink(temporary).catch(() => {});
  }
  writer.leaseUntil = leaseUntil;
  return true;
}

/** Throws `session_locked` unless `writer` still holds the lock (another process may have taken a lock it judged stale). */
export async function assertLockFileHeld(path: string, sessionId: string, writer: SessionWriter): Promise<void> {
  const holder = await readLockFile(path);
  if (typeof holder === 'object' && holder.token === writer.token) return;
  if (typeof holder === 'object') throw sessionLocked(sessionId, holder, `delete ${path}`);
  throw new SessionStoreError(
    `Session ${sessionId} lost its lock (${path} was removed while it was open), so the turn was not saved. Open the session again.`,
    { code: 'session_locked', sessionId },
  );
}

/** The writer a lock file names, 'missing' when there is none, 'damaged' when it cannot be read as one. */
export async function readLockFile(path: string): Promise<SessionWriter | 'missing' | 'damaged'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return 'missing';
    throw error;
  }
  try {
    return parseWriter(JSON.parse(text)) ?? 'damaged';
  } catch {
    return 'damaged';
  }
}

/**
 * Moves a stale lock aside, and removes it when it is still the one judged stale. Two writers may judge
 * the same lock stale at once: the rename lets one of them move it, and a lock that another writer
 * created meanwhile is put back rather than removed.
 */
async function takeOver(path: string, stale: SessionWriter | 'damaged', writer: SessionWriter): Promise<void> {
  const aside = `${path}.${writer.token}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return;
    throw error;
  }
  const moved = await readLockFile(aside);
  const same = stale === 'damaged' ? moved === 'damaged' : typeof moved === 'object' && moved.token === stale.token;
  if (!same) await link(aside, path).catch(() => {});
  await unlink(aside).catch(() => {});
}

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException)?.code === code;
}

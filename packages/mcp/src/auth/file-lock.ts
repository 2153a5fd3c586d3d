import { randomUUID } from 'node:crypto';
import { link, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/** How long a lock holds without renewal; its holder renews it every third of that while it works. */
export const LOCK_LEASE_MS = 30_000;

/** How long a process waits for another's lock before it gives up and says so. */
export const LOCK_WAIT_MS = 2 * LOCK_LEASE_MS;

/** Who holds a lock file, as written in it. */
interface LockHolder {
  pid: number;
  host: string;
  token: string;
  since: string;
}

/** What `withFileLock` says of the lock beside its path. */
export interface FileLockOptions {
  /**
   * What a holder does while it holds the lock, for the message of a process that waited too long:
   * `refreshing the token for https://mcp.example.com/mcp`. Default: `holding the lock <path>`.
   */
  purpose?: string;
}

/**
 * Runs `work` while holding the lock file `path` (created exclusively, 0600), against other processes and
 * other callers of this process alike, and removes it after. A lock whose holder is gone (a process of
 * this machine that no longer runs, or a lock not renewed for LOCK_LEASE_MS, as one left by a crash on
 * another machine sharing the folder) is taken over. Throws when the lock stays held for LOCK_WAIT_MS,
 * naming the holder and what it does (`purpose`); a live holder is left alone, so only one whose file
 * cannot be read is advice to delete the file.
 */
export async function withFileLock<T>(path: string, work: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    token: randomUUID(),
    since: new Date().toISOString(),
  };
  await acquire(path, holder, options.purpose ?? `holding the lock ${path}`);
  const renewal = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => {});
  }, LOCK_LEASE_MS / 3);
  // The renewal keeps the lock, not the process.
  renewal.unref?.();
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    await release(path, holder);
  }
}

async function acquire(path: string, holder: LockHolder, purpose: string): Promise<void> {
  const started = Date.now();
  let delayMs = 5;
  for (;;) {
    try {
      await writeFile(path, JSON.stringify(holder), { flag: 'wx', mode: 0o600 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const other = await readHolder(path);
    if (other === 'gone') continue;
    if (other.stale) {
      await breakLock(path, other.holder);
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) throw waitedTooLong(path, other.holder, purpose);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 100);
  }
}

/**
 * Why a wait for a lock ended. The holder is alive here (a dead one's lock is taken over): it is told to
 * be waited for, not deleted; the file alone is suspect when no holder can be read from it.
 */
function waitedTooLong(path: string, holder: LockHolder | undefined, purpose: string): Error {
  const waited = `Waited ${LOCK_WAIT_MS / 1000} s`;
  if (!holder) {
    return new Error(
      `${waited} for the lock ${path}, whose holder cannot be read; if no agentloop is running, delete that file and try again.`,
    );
  }
  const who =
    holder.host === hostname()
      ? `another agentloop process (pid ${holder.pid})`
      : `an agentloop process on ${holder.host} (pid ${holder.pid})`;
  return new Error(`${waited}: ${who} is ${purpose}; try again.`);
}

/** The lock's holder and whether it is gone; 'gone' when the lock itself was released meanwhile. */
async function readHolder(path: string): Promise<'gone' | { holder: LockHolder | undefined; stale: boolean }> {
  try {
    const [text, status] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    const holder = parseHolder(text);
    const expired = Date.now() - status.mtimeMs > LOCK_LEASE_MS;
    // A lock without a readable holder is one being written (or damaged): only its age can free it.
    return { holder, stale: expired || (holder !== undefined && !isRunning(holder)) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
}

/**
 * Takes a dead holder's lock away. Renamed aside first and checked there, so that two processes that both
 * found it stale do not remove the lock one of them has taken since: the one that moved a live lock puts
 * it back (unless a third took the place meanwhile, which the lease cannot rule out).
 */
async function breakLock(path: string, stale: LockHolder | undefined): Promise<void> {
  const aside = `${path}.${randomUUID()}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = parseHolder(await readFile(aside, 'utf8').catch(() => ''));
  // link, not rename: it fails rather than replace a lock a third process took meanwhile.
  if (moved && moved.token !== stale?.token) await link(aside, path).catch(() => {});
  await unlink(aside).catch(() => {});
}

async function release(path: string, holder: LockHolder): Promise<void> {
  const current = parseHolder(await readFile(path, 'utf8').catch(() => ''));
  // A lock taken over after this one ran out of lease is the new holder's.
  if (current?.token === holder.token) await unlink(path).catch(() => {});
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder> | null;
    if (
      typeof value?.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.token === 'string' &&
      typeof value.since === 'string'
    ) {
      return value as LockHolder;
    }
  } catch {}
  return undefined;
}

/** Whether the holder still runs; one on another machine cannot be checked, and its lease decides. */
function isRunning(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

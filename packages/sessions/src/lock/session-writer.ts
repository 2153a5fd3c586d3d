import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { SessionStoreError } from '@agentloop/memory';

/** Who holds a session's write lock, as both stores save it. */
export interface SessionWriter {
  /** The writing process. */
  pid: number;
  /** The machine it runs on. */
  host: string;
  /** Tells two writers of one process apart (two stores, or one store opened twice). */
  token: string;
  /** When it took the lock, as an ISO date. */
  since: string;
  /**
   * Until when the lock holds without renewal, in milliseconds since the epoch: the holder renews it while
   * it lives, so a holder on another machine that died frees the session when its lease ends. Absent in
   * locks written before leases existed (such a holder on another machine counts as live, as it did).
   */
  leaseUntil?: number;
}

// The writers of this process that still hold their lock. A lock of this process whose token is not here
// was left by a store that released it without saying so (it cannot happen with the stores here, but a
// lock file copied from elsewhere could), and may be taken.
const liveTokens = new Set<string>();

/** A new writer of this process, leased until `leaseUntil` when given; it counts as live until `retireWriter`. */
export function newWriter(leaseUntil?: number): SessionWriter {
  const writer: SessionWriter = {
    pid: process.pid,
    host: hostname(),
    token: randomUUID(),
    since: new Date().toISOString(),
    ...(leaseUntil === undefined ? {} : { leaseUntil }),
  };
  liveTokens.add(writer.token);
  return writer;
}

/** Marks a writer of this process as gone. */
export function retireWriter(writer: SessionWriter): void {
  liveTokens.delete(writer.token);
}

/**
 * Whether the lock's holder may still write at `now`. A process of this machine that no longer exists
 * holds nothing (it was killed, or crashed, without releasing its lock). A process of another machine
 * cannot be checked: it holds the lock while its lease runs (it renews it while it lives), and for good
 * when its lock has no lease (an older version wrote it).
 */
export function isWriterLive(writer: SessionWriter, now: number = Date.now()): boolean {
  if (writer.host !== hostname()) return writer.leaseUntil === undefined || writer.leaseUntil > now;
  if (writer.pid === process.pid) return liveTokens.has(writer.token);
  try {
    process.kill(writer.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A saved writer, or undefined for anything else (a damaged lock counts as no lock). */
export function parseWriter(value: unknown): SessionWriter | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { pid, host, token, since, leaseUntil } = value as Record<string, unknown>;
  if (typeof pid !== 'number' || typeof host !== 'string' || typeof token !== 'string' || typeof since !== 'string') {
    return undefined;
  }
  return { pid, host, token, since, ...(typeof leaseUntil === 'number' ? { leaseUntil } : {}) };
}

/**
 * The `session_locked` error for a session held by `holder`. It says what a user can do with the command
 * line alone: close the other agentloop or start a new session. A holder on another machine cannot be
 * checked: with a lease, the message says when it ends (which frees the session if that process is gone);
 * without one (an older version's lock), how to clear the lock by hand (`clearLock`, a step that needs no
 * agentloop command).
 */
export function sessionLocked(sessionId: string, holder: SessionWriter, clearLock: string): SessionStoreError {
  const advice = 'Close that agentloop (or wait for it to end) and try again, or start a new session.';
  const elsewhere = `Session ${sessionId} is open in process ${holder.pid} on ${holder.host} (since ${holder.since}), another machine`;
  const message =
    holder.host === hostname()
      ? `Session ${sessionId} is open in process ${holder.pid} (since ${holder.since}), which is still writing it. ${advice}`
      : holder.leaseUntil !== undefined
        ? `${elsewhere}, whose lease runs until ${new Date(holder.leaseUntil).toISOString()}. ${advice} If that ` +
          'process is gone, the session is free when its lease ends.'
        : `${elsewhere}, where agentloop cannot check that it still runs. ${advice} If that process is gone, clear ` +
          `its lock: ${clearLock}.`;
  return new SessionStoreError(message, { code: 'session_locked', sessionId });
}

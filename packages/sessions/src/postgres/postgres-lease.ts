import { hostname } from 'node:os';
import { SessionStoreError } from '@agentloop/memory';
import type { SessionWriter } from '../lock/session-writer.js';
import { isWriterLive, sessionLocked } from '../lock/session-writer.js';

/** The write lock of a session as its row keeps it: the holder, until when its lease runs, and the fence. */
export interface LeaseRow {
  writer: SessionWriter | undefined;
  leaseUntil: number | null;
}

/**
 * Whether the row's lock still holds at `now`: a lease that ran out holds nothing, whoever its holder
 * was (a process on any machine, dead or paused); before that, a holder of this machine that is gone
 * (killed, crashed) holds nothing either, so a restarted process need not wait for the lease to end.
 */
export function leaseHeld(lease: LeaseRow, now: number): boolean {
  if (!lease.writer || lease.leaseUntil === null || lease.leaseUntil <= now) return false;
  return lease.writer.host !== hostname() || isWriterLive(lease.writer);
}

/**
 * The `session_locked` error for a session whose lease another live writer holds. A holder of this
 * machine gets the file stores' words; one of another machine cannot be checked, so the message says
 * when its lease ends, which frees the session if that process is gone.
 */
export function leaseLocked(sessionId: string, lease: LeaseRow, leaseMs: number): SessionStoreError {
  const holder = lease.writer;
  if (holder && holder.host === hostname()) return sessionLocked(sessionId, holder, '');
  const until = new Date(lease.leaseUntil ?? 0).toISOString();
  const who = holder
    ? `process ${holder.pid} on ${holder.host} (since ${holder.since}), another machine`
    : 'another writer';
  return new SessionStoreError(
    `Session ${sessionId} is open in ${who}, whose lease runs until ${until}. Close that agentloop (or wait for it to end) and try again, or start a new session. If that process is gone, the session is free when its lease ends, at most ${Math.ceil(leaseMs / 1000)} s after it stopped renewing it.`,
    { code: 'session_locked', sessionId },
  );
}

/** The `session_locked` error of a commit whose writer lost its lease to another one. */
export function leaseLost(sessionId: string): SessionStoreError {
  return new SessionStoreError(
    `Session ${sessionId} lost its lease (this process did not renew it in time, and another writer took the session over), so the turn was not saved. Open the session again.`,
    { code: 'session_locked', sessionId },
  );
}

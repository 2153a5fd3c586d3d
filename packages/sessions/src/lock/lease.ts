import { SessionStoreError } from '@agentloop/memory';
import type { SessionWriter } from './session-writer.js';
import { newWriter } from './session-writer.js';

/** How long a session's write lock lasts without renewal when a store is not told otherwise. */
export const DEFAULT_LEASE_MS = 30_000;

/** The lease settings every store shares: its length, and the clock it is read from. */
export interface LeaseSettings {
  leaseMs: number;
  now: () => number;
}

/**
 * The store's lease settings from its options. A lease shorter than a second would run out between a
 * renewal and the next (they are a third of a lease apart, behind a busy event loop or a slow disk).
 */
export function leaseSettings(store: string, options: { leaseMs?: number; now?: () => number }): LeaseSettings {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (typeof leaseMs !== 'number' || !Number.isFinite(leaseMs) || leaseMs < 1_000) {
    throw new SessionStoreError(`${store}'s leaseMs must be at least 1000 milliseconds, not ${String(leaseMs)}.`, {
      code: 'invalid_session',
    });
  }
  return { leaseMs, now: options.now ?? Date.now };
}

/**
 * Renews a lease every third of its length until the returned function is called; that function also
 * waits for a renewal in flight, so that none rewrites a lock after its release. `renew` returns false
 * when the lease is not this writer's any more, which ends the renewals; one that fails leaves the lease
 * to run out (the commit after says what happened).
 */
export function renewLease(leaseMs: number, renew: () => Promise<boolean>): () => Promise<void> {
  let inFlight: Promise<unknown> = Promise.resolve();
  const timer = setInterval(
    () => {
      inFlight = renew().then(
        (held) => {
          if (!held) clearInterval(timer);
        },
        () => {},
      );
    },
    Math.floor(leaseMs / 3),
  );
  // The renewal keeps the lease, not the process: an app that ends without closing its store just ends.
  timer.unref?.();
  return async () => {
    clearInterval(timer);
    await inFlight;
  };
}

/** A new writer of this process with a fresh lease, and the moment it was read (to judge other holders by). */
export function leasedWriter(lease: LeaseSettings): { writer: SessionWriter; now: number } {
  const now = lease.now();
  return { writer: newWriter(now + lease.leaseMs), now };
}

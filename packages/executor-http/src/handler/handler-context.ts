import type { SessionStore } from '@agentloop/core';
import { z } from 'zod';
import { HttpError } from '../errors/http-error.js';
import type { Principal } from '../runs/principal.js';
import type { RunManager } from '../runs/run-manager.js';
import type { SessionOwners } from '../sessions/session-owners.js';

/** What every route gets: the runs, the store, and who owns which session. */
export interface HandlerContext {
  runs: RunManager;
  sessions: SessionStore;
  owners: SessionOwners;
  /** Hands what failed on the server to the handler's `onError`: responses never carry it. */
  reportError: (error: unknown) => void;
}

/** Hono's environment of the handler's app: the authenticated principal of each API request. */
export interface HandlerEnv {
  Variables: { principal: Principal };
}

// The SessionStore contract's rule: a file name on every platform, never a path or a hidden file.
export const sessionIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/,
    'use 1 to 128 letters, digits, "-", "_" or ".", not starting with "."',
  );

/** Checks a session id from a path; a 400 that says the rule when it breaks it. */
export function parseSessionId(value: string): string {
  const parsed = sessionIdSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new HttpError(
    `${JSON.stringify(value)} is not a session id: use 1 to 128 letters, digits, "-", "_" or ".", not starting with ".".`,
    { code: 'invalid_body', statusCode: 400 },
  );
}

/**
 * Makes sure the principal may use the session: its own, or a new id, which it then owns. Another
 * principal's session gets the same 404 as a missing one, so ids of others' sessions do not leak.
 */
export async function claimSession(context: HandlerContext, principal: Principal, sessionId: string): Promise<void> {
  const owner = (await context.owners.ownerOf(sessionId)) ?? (await context.owners.claim(sessionId, principal.id));
  if (owner !== principal.id) throw sessionNotFound(sessionId);
}

/** Throws the 404 of a session the principal does not own, or that does not exist. */
export async function requireOwnSession(
  context: HandlerContext,
  principal: Principal,
  sessionId: string,
): Promise<void> {
  if ((await context.owners.ownerOf(sessionId)) !== principal.id) throw sessionNotFound(sessionId);
}

export function sessionNotFound(sessionId: string): HttpError {
  return new HttpError(`No session ${sessionId}: list yours with GET /api/sessions.`, {
    code: 'not_found',
    statusCode: 404,
  });
}

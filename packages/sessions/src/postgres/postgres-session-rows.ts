import { sessionNotFound } from '../session-state.js';
import type { SessionRow } from '../sqlite/session-row.js';
import { writerOfColumn } from '../sqlite/session-row.js';
import type { PostgresClient, PostgresPool } from './load-pg.js';
import type { LeaseRow } from './postgres-lease.js';

/**
 * The columns of `agentloop_sessions` as the store reads them (see PostgresRow). Timestamps are BIGINT,
 * which node-postgres gives as text: read as float8, exact for any date in ms.
 */
export const SESSION_COLUMNS = `id, title, model, workspace, created_at::float8 AS created_at, updated_at::float8 AS updated_at,
  turn_count, message_count, usage, pending_question, forked_from, forked_at_message, writer,
  lease_until::float8 AS lease_until, fence::text AS fence`;

/** A session's row as SESSION_COLUMNS reads it: the SQLite store's columns, with the lease and its fence. */
export type PostgresRow = SessionRow & { lease_until: number | null; fence: string };

/**
 * A session's row; throws `session_not_found` naming `where`. With `forUpdate`, the row stays locked until
 * the transaction ends.
 */
export async function selectSessionRow(
  db: PostgresPool | PostgresClient,
  sessionId: string,
  where: string,
  options: { forUpdate?: boolean } = {},
): Promise<PostgresRow> {
  const lock = options.forUpdate ? ' FOR UPDATE' : '';
  const { rows } = await db.query(`SELECT ${SESSION_COLUMNS} FROM agentloop_sessions WHERE id = $1${lock}`, [
    sessionId,
  ]);
  const row = rows[0] as PostgresRow | undefined;
  if (!row) throw sessionNotFound(sessionId, where);
  return row;
}

/** Locks a session's row until the transaction ends, and gives its lease; throws `session_not_found`. */
export async function lockSessionLease(client: PostgresClient, sessionId: string, where: string): Promise<LeaseRow> {
  const { rows } = await client.query(
    'SELECT writer, lease_until::float8 AS lease_until FROM agentloop_sessions WHERE id = $1 FOR UPDATE',
    [sessionId],
  );
  const row = rows[0] as { writer: string | null; lease_until: number | null } | undefined;
  if (!row) throw sessionNotFound(sessionId, where);
  return { writer: writerOfColumn(row.writer), leaseUntil: row.lease_until };
}

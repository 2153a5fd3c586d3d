import { SessionStoreError } from '@agentloop/memory';
import type { PostgresClient } from './load-pg.js';

/**
 * The migrations of the database, in order: migration `n` takes a database of schema version `n` (0 for
 * an empty one) to `n + 1`. A released migration is never changed: a change of the schema is a new
 * migration at the end. The tables carry an `agentloop_` prefix: they share a database with the app's own.
 */
const MIGRATIONS: readonly string[] = [
  // 1: sessions (with the lease and fencing token of their writer), their messages, their committed turns.
  `
  CREATE TABLE agentloop_sessions (
    id TEXT PRIMARY KEY,
    title TEXT,
    model TEXT,
    workspace TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    turn_count INTEGER NOT NULL DEFAULT 0,
    message_count INTEGER NOT NULL DEFAULT 0,
    usage TEXT NOT NULL,
    pending_question TEXT,
    forked_from TEXT,
    forked_at_message INTEGER,
    writer TEXT,
    lease_until BIGINT,
    fence BIGINT NOT NULL DEFAULT 0
  );
  CREATE INDEX agentloop_sessions_by_update ON agentloop_sessions (updated_at DESC, id);
  CREATE INDEX agentloop_sessions_by_workspace ON agentloop_sessions (workspace, updated_at DESC, id);
  CREATE TABLE agentloop_messages (
    session_id TEXT NOT NULL REFERENCES agentloop_sessions (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (session_id, position)
  );
  CREATE TABLE agentloop_turns (
    session_id TEXT NOT NULL REFERENCES agentloop_sessions (id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    committed_at BIGINT NOT NULL,
    exit TEXT,
    model TEXT,
    usage TEXT NOT NULL,
    PRIMARY KEY (session_id, turn)
  );
  `,
];

/** The schema version this version of the store writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

// Any number both the store and a person reading pg_locks can tell apart from the app's own locks.
const MIGRATION_LOCK = 0x61676c70;

/**
 * Brings the database to the current schema in one transaction, under an advisory lock: app servers that
 * start at once see it migrated once. Refuses a database of a newer version than this store knows.
 */
export async function migrate(client: PostgresClient, where: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS agentloop_schema (version INTEGER NOT NULL)');
    const { rows } = await client.query('SELECT version FROM agentloop_schema');
    const version = rows.length === 0 ? 0 : Number(rows[0]?.version);
    if (version > POSTGRES_SCHEMA_VERSION) {
      throw new SessionStoreError(
        `${where} holds sessions of schema version ${version}; this version of @agentloop/sessions reads up to version ${POSTGRES_SCHEMA_VERSION}. Update agentloop to read them.`,
        { code: 'unsupported_session_version' },
      );
    }
    for (const migration of MIGRATIONS.slice(version)) await client.query(migration);
    if (rows.length === 0)
      await client.query('INSERT INTO agentloop_schema (version) VALUES ($1)', [POSTGRES_SCHEMA_VERSION]);
    else if (version !== POSTGRES_SCHEMA_VERSION)
      await client.query('UPDATE agentloop_schema SET version = $1', [POSTGRES_SCHEMA_VERSION]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

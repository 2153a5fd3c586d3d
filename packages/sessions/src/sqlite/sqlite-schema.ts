import { SessionStoreError } from '@agentloop/memory';
import type { SqliteDatabase } from './load-sqlite.js';

/**
 * The migrations of the database, in order: migration `n` takes a database of schema version `n` (0 for
 * an empty one) to `n + 1`. The version is SQLite's `user_version`. A released migration is never changed:
 * a change of the schema is a new migration at the end (a frozen database of every version is tested).
 */
const MIGRATIONS: readonly string[] = [
  // 1: sessions, their messages, their committed turns.
  `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    title TEXT,
    model TEXT,
    workspace TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    turn_count INTEGER NOT NULL DEFAULT 0,
    message_count INTEGER NOT NULL DEFAULT 0,
    usage TEXT NOT NULL,
    pending_question TEXT,
    forked_from TEXT,
    forked_at_message INTEGER,
    writer TEXT
  );
  CREATE INDEX sessions_by_update ON sessions (updated_at DESC);
  CREATE INDEX sessions_by_workspace ON sessions (workspace, updated_at DESC);
  CREATE TABLE messages (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (session_id, position)
  ) WITHOUT ROWID;
  CREATE TABLE turns (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    turn INTEGER NOT NULL,
    committed_at INTEGER NOT NULL,
    exit TEXT,
    model TEXT,
    usage TEXT NOT NULL,
    PRIMARY KEY (session_id, turn)
  ) WITHOUT ROWID;
  `,
];

/** The schema version this version of the store writes. */
export const SQLITE_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings a database to the current schema, in one transaction that waits for other writers (two
 * processes opening a new database at once both see it migrated once). Refuses a database of a newer
 * version than this store knows. A database already at this version (every open but the first) is only
 * read: no write transaction, which would wait for another process's write and sync the file.
 */
export function migrate(db: SqliteDatabase, file: string): void {
  if (schemaVersion(db, file) === SQLITE_SCHEMA_VERSION) return;
  db.transaction(() => {
    const version = schemaVersion(db, file);
    for (const migration of MIGRATIONS.slice(version)) db.exec(migration);
    if (version !== SQLITE_SCHEMA_VERSION) db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
  }).immediate();
}

/** The database's schema version; refuses one newer than this store knows. */
function schemaVersion(db: SqliteDatabase, file: string): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SQLITE_SCHEMA_VERSION) {
    throw new SessionStoreError(
      `${file} is a session database of schema version ${version}; this version of @agentloop/sessions reads up to version ${SQLITE_SCHEMA_VERSION}. Update agentloop to read it.`,
      { code: 'unsupported_session_version' },
    );
  }
  return version;
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createPrivateFileSync, makePrivateSync, PRIVATE_FOLDER_MODE } from '../private-files.js';
import { storeFailure } from '../store-failure.js';
import type { SqliteDatabase } from './load-sqlite.js';
import { loadSqlite, sqliteNativeBinding } from './load-sqlite.js';
import { migrate } from './sqlite-schema.js';

/**
 * Opens the sessions' database file, made private along with its folder, in WAL mode with every commit
 * synced, its schema migrated. Throws a SessionStoreError naming the file when it cannot.
 */
export function openSqliteDatabase(file: string, options: { busyTimeoutMs?: number } = {}): SqliteDatabase {
  const Database = loadSqlite();
  let db: SqliteDatabase | undefined;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    // SQLite makes the -wal and -shm files with the mode of the database: a private one keeps them private.
    createPrivateFileSync(file);
    for (const each of [file, `${file}-wal`, `${file}-shm`]) makePrivateSync(each);
    const nativeBinding = sqliteNativeBinding();
    const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
    db = new Database(file, { timeout: busyTimeoutMs, ...(nativeBinding === undefined ? {} : { nativeBinding }) });
    switchToWal(db, busyTimeoutMs);
    // FULL: a commit is on disk when it returns (NORMAL would survive a crash of the process, not of the machine).
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db, file);
    return db;
  } catch (error) {
    db?.close();
    throw storeFailure(error, { file });
  }
}

/**
 * Puts the database in WAL mode. Two processes opening a new database file at once can get SQLITE_BUSY
 * from this switch at once, without SQLite's busy handler waiting (the switch needs the file to itself),
 * so it is tried again, a few milliseconds apart, until the busy timeout has passed.
 */
export function switchToWal(db: Pick<SqliteDatabase, 'pragma'>, busyTimeoutMs: number, now = Date.now): void {
  const deadline = now() + busyTimeoutMs;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || now() >= deadline) throw error;
      // Synchronous like the rest of the open: the constructor of the store is synchronous.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/**
 * Runs a write that a power cut may lose without harm, without waiting for the disk: a new session
 * (nothing in it yet) and the lock of a session (its holder is gone with the power). SQLite's WAL keeps
 * the database whole either way, and the next commit, synchronous, puts these on disk with it. A one-step
 * `agentloop run` made five writes, each waiting for an fsync, and a short run pays for them in full.
 */
export function writeUnsynced<T>(db: SqliteDatabase, write: () => T): T {
  db.pragma('synchronous = NORMAL');
  try {
    return write();
  } finally {
    db.pragma('synchronous = FULL');
  }
}

import { createRequire } from 'node:module';
import { SessionStoreError } from '@agentloop/memory';
import type BetterSqlite3 from 'better-sqlite3';

/** A better-sqlite3 database. */
export type SqliteDatabase = BetterSqlite3.Database;

type DatabaseConstructor = typeof BetterSqlite3;

let loaded: DatabaseConstructor | undefined;

/**
 * better-sqlite3, loaded when the first SqliteSessionStore is made: it is a native module, an optional
 * dependency that may have failed to build, and an app that keeps its sessions in JSON lines files never
 * needs it.
 */
export function loadSqlite(): DatabaseConstructor {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
    return loaded;
  } catch (error) {
    throw new SessionStoreError(
      `The SQLite session store needs better-sqlite3, which could not be loaded (${(error as Error).message.split('\n')[0]}). ` +
        'Install it with `npm install better-sqlite3` (it builds a native module: Python, make and a C++ compiler are needed ' +
        'where no prebuilt one exists), or keep sessions in JSON lines files with JsonlSessionStore.',
      { code: 'store_unavailable', cause: error },
    );
  }
}

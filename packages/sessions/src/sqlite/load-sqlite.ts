import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SessionStoreError } from '@agentloop/memory';
import type BetterSqlite3 from 'better-sqlite3';

/** A better-sqlite3 database. */
export type SqliteDatabase = BetterSqlite3.Database;

type DatabaseConstructor = typeof BetterSqlite3;

let loaded: DatabaseConstructor | undefined;
let binding: string | null | undefined;

/**
 * better-sqlite3, loaded when the first SqliteSessionStore is made: it is a native module, an optional
 * dependency that may have failed to build, and an app that keeps its sessions in JSON lines files never
 * needs it. Required, not imported: a native module cannot be bundled, and a bundler leaves a `require`
 * through createRequire alone, so an app's bundle finds it in the node_modules shipped beside it.
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

/**
 * The native module better-sqlite3 builds (or downloads) into its `build/Release`, or undefined when it is
 * elsewhere. Given as `nativeBinding`, it spares opening a database the search the `bindings` package does
 * for it (a dozen paths tried, and a stack trace made to find the package: a few milliseconds of every
 * start that opens a store); when it is not there, better-sqlite3 searches as before.
 */
export function sqliteNativeBinding(): string | undefined {
  if (binding === undefined) {
    try {
      const entry = createRequire(import.meta.url).resolve('better-sqlite3');
      const build = path.join(path.dirname(entry), '..', 'build');
      const file = path.join(build, 'Release', 'better_sqlite3.node');
      // `bindings` would take a debug build first: then it is left to search.
      binding = existsSync(file) && !existsSync(path.join(build, 'Debug', 'better_sqlite3.node')) ? file : null;
    } catch {
      binding = null;
    }
  }
  return binding ?? undefined;
}

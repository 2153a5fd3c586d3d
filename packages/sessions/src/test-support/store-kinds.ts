import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { SessionStore } from '@agentloop/memory';
import pg from 'pg';
import { afterAll } from 'vitest';
import { JsonlSessionStore } from '../jsonl/jsonl-session-store.js';
import { PostgresSessionStore } from '../postgres/postgres-session-store.js';
import { SqliteSessionStore } from '../sqlite/sqlite-session-store.js';
import { startPostgresServer } from './postgres-server.js';
import { systemToolAvailable } from './system-tools.js';

/** One of the real stores, made on a place in a temporary folder (or a database of a test server). */
export interface StoreKind {
  name: 'jsonl' | 'sqlite' | 'postgres';
  /**
   * Where a store of this kind keeps its sessions inside `folder`: a folder of files, a database file, or
   * the connection string of a database named after the folder.
   */
  location(folder: string): string;
  /** Makes what the location needs before a store opens it (a database); nothing for the file stores. */
  prepare?(location: string): Promise<void>;
  /** A store on `location`; several stores on one location share its sessions, like several processes. */
  open(location: string): SessionStore;
}

export const STORE_KINDS: readonly StoreKind[] = [
  {
    name: 'jsonl',
    location: (folder) => join(folder, 'sessions'),
    open: (location) => new JsonlSessionStore({ directory: location }),
  },
  {
    name: 'sqlite',
    location: (folder) => join(folder, 'sessions.sqlite'),
    open: (location) => new SqliteSessionStore({ file: location }),
  },
];

/** A temporary folder, removed by `remove`. */
export function tempFolder(prefix = 'agentloop-sessions-'): { path: string; remove(): void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A store kind on a PostgreSQL server of this test file, started now and stopped after the file's tests;
 * undefined (after saying why) where no server can be started, and a failure under
 * AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1. Each location is a database of its own.
 */
export async function postgresStoreKind(): Promise<StoreKind | undefined> {
  const server = await startPostgresServer();
  if (!systemToolAvailable('PostgreSQL', 'reason' in server ? server.reason : undefined) || 'reason' in server) {
    return undefined;
  }
  afterAll(() => server.stop());
  return {
    name: 'postgres',
    location: (folder) =>
      server.database(
        `t_${basename(folder)
          .toLowerCase()
          .replace(/[^a-z0-9]/g, '_')}`,
      ),
    prepare: async (location) => {
      const admin = new pg.Client({ connectionString: server.connectionString });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${new URL(location).pathname.slice(1)}"`);
      } finally {
        await admin.end();
      }
    },
    open: (location) => new PostgresSessionStore({ connectionString: location }),
  };
}

/** The file stores, and PostgreSQL where a server can be started. */
export async function storeKindsWithPostgres(): Promise<readonly StoreKind[]> {
  const postgres = await postgresStoreKind();
  return postgres ? [...STORE_KINDS, postgres] : STORE_KINDS;
}

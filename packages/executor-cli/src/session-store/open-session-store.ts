import { chmodSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SessionStore } from '@agentloop/core';
import type { SessionStoreLocation } from './session-store-location.js';

/**
 * The store at a location. @agentloop/sessions (and SQLite's native module) load here, on first use, not
 * with the command: a session that saves nothing never loads them.
 */
export async function openSessionStore(location: SessionStoreLocation): Promise<SessionStore> {
  const { JsonlSessionStore, PostgresSessionStore, SqliteSessionStore } = await import('@agentloop/sessions');
  if (location.kind === 'postgres') {
    return new PostgresSessionStore({ connectionString: location.connectionString ?? '' });
  }
  if (location.defaultFolder) makeFolderPrivate(location.kind === 'sqlite' ? dirname(location.path) : location.path);
  return location.kind === 'sqlite'
    ? new SqliteSessionStore({ file: location.path })
    : new JsonlSessionStore({ directory: location.path });
}

/**
 * Takes the group's and others' access away from agentloop's own sessions folder, which an earlier version
 * made 0755: the conversations in it are for their owner alone. The store makes a missing folder 0700
 * itself; a folder the configuration names is the user's, and keeps its mode. A folder that cannot be
 * changed is left as it is: the files in it are 0600 anyway, and the store reports what it cannot write.
 */
function makeFolderPrivate(folder: string): void {
  try {
    const { mode } = statSync(folder);
    if ((mode & 0o077) !== 0) chmodSync(folder, mode & 0o700);
  } catch {
    // Missing (the store makes it), or not ours to change.
  }
}

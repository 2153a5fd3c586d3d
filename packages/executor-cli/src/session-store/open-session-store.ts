import type { SessionStore } from '@agentloop/core';
import type { SessionStoreLocation } from './session-store-location.js';

/**
 * The store at a location. @agentloop/sessions (and SQLite's native module) load here, on first use, not
 * with the command: a session that saves nothing never loads them.
 */
export async function openSessionStore(location: SessionStoreLocation): Promise<SessionStore> {
  const { JsonlSessionStore, SqliteSessionStore } = await import('@agentloop/sessions');
  return location.kind === 'sqlite'
    ? new SqliteSessionStore({ file: location.path })
    : new JsonlSessionStore({ directory: location.path });
}

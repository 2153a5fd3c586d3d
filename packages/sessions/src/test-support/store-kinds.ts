import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '@agentloop/memory';
import { JsonlSessionStore } from '../jsonl/jsonl-session-store.js';
import { SqliteSessionStore } from '../sqlite/sqlite-session-store.js';

/** One of the two real stores, made on a place in a temporary folder. */
export interface StoreKind {
  name: 'jsonl' | 'sqlite';
  /** Where a store of this kind keeps its sessions inside `folder`: a folder of files, or a database file. */
  location(folder: string): string;
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

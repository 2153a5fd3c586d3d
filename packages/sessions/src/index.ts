// The public surface of @agentloop/sessions: the three SessionStores (the contract is in @agentloop/memory).
export type { JsonlSessionStoreOptions } from './jsonl/jsonl-session-store.js';
export { JsonlSessionStore } from './jsonl/jsonl-session-store.js';
export { SESSION_FILE_VERSION } from './jsonl/session-file-records.js';
export type { PostgresClient, PostgresPool, PostgresQueryResult } from './postgres/load-pg.js';
export { POSTGRES_SCHEMA_VERSION } from './postgres/postgres-schema.js';
export type { PostgresSessionStoreOptions } from './postgres/postgres-session-store.js';
export { PostgresSessionStore } from './postgres/postgres-session-store.js';
export { SQLITE_SCHEMA_VERSION } from './sqlite/sqlite-schema.js';
export type { SqliteSessionStoreOptions } from './sqlite/sqlite-session-store.js';
export { SqliteSessionStore } from './sqlite/sqlite-session-store.js';

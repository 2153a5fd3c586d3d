// A private PostgreSQL server per test file; the benchmarks start one the same way (scripts/postgres-server.mjs).
export type { PostgresServer } from '../../../../scripts/postgres-server.mjs';
export { startPostgresServer } from '../../../../scripts/postgres-server.mjs';

/** A private PostgreSQL server in a temporary folder, for one test file or benchmark. */
export interface PostgresServer {
  /** The connection string of its `postgres` database, over 127.0.0.1. */
  connectionString: string;
  /** The connection string of another database of the server. */
  database(name: string): string;
  /** Stops the server and removes its folder. */
  stop(): void;
}

/**
 * Starts a PostgreSQL server of its own in a temporary folder (trust authentication, listening on
 * 127.0.0.1 and a socket in that folder), or gives the reason it cannot. initdb refuses to run as root:
 * as root the server runs as the `postgres` user, otherwise as the current one.
 */
export declare function startPostgresServer(): Promise<PostgresServer | { reason: string }>;

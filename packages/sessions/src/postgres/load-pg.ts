import { SessionStoreError } from '@agentloop/memory';

/** A result of a query: its rows and how many it touched. */
export interface PostgresQueryResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

/** A connection taken from a pool (node-postgres' `PoolClient`, as far as the store uses it). */
export interface PostgresClient {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  /** Gives the connection back; with an error, the pool closes it instead of reusing it. */
  release(error?: Error | boolean): void;
}

/** A pool of connections (node-postgres' `Pool`, as far as the store uses it), shared with the app. */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  connect(): Promise<PostgresClient>;
  end(): Promise<void>;
}

/** What `import('pg')` gives: node-postgres is a CommonJS module, its exports on `default`. */
interface PgModule {
  Pool: new (options: {
    connectionString: string;
    max?: number;
  }) => PostgresPool & { on(event: 'error', listener: (error: Error) => void): unknown };
}

let loading: Promise<PgModule> | undefined;

/**
 * node-postgres, loaded when the first PostgresSessionStore without a pool of its own connects: it is an
 * optional peer dependency, and an app that keeps its sessions in files or SQLite never loads it.
 */
export function loadPg(): Promise<PgModule> {
  loading ??= import('pg').then(
    (module) => ((module as { default?: PgModule }).default ?? module) as PgModule,
    (error: unknown) => {
      loading = undefined;
      throw new SessionStoreError(
        `The PostgreSQL session store needs the pg package (node-postgres), which could not be loaded (${String((error as Error)?.message ?? error).split('\n')[0]}). ` +
          'Install it with `npm install pg`, or keep sessions in SQLite or JSON lines files.',
        { code: 'store_unavailable', cause: error },
      );
    },
  );
  return loading;
}

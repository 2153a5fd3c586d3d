import type { PostgresPool } from './load-pg.js';
import { loadPg } from './load-pg.js';
import { migrate } from './postgres-schema.js';

/**
 * The pool a PostgresSessionStore works through: the app's own, or one made from a connection string on
 * first use; either way the schema is migrated once, before the first query. Only a pool made here is
 * ended with the store.
 */
export class PostgresStorePool {
  readonly #connectionString: string | undefined;
  readonly #where: string;
  readonly #own: boolean;
  #pool: PostgresPool | undefined;
  #ready: Promise<PostgresPool> | undefined;

  /** `where` names the database in errors. */
  constructor(options: { connectionString?: string | undefined; pool?: PostgresPool | undefined; where: string }) {
    this.#connectionString = options.connectionString;
    this.#pool = options.pool;
    this.#own = options.pool === undefined;
    this.#where = options.where;
  }

  /** The pool if there is one yet, without making it or migrating: for work that is moot without it. */
  get current(): PostgresPool | undefined {
    return this.#pool;
  }

  /** The pool, made and the schema migrated on first use; a failure is tried again at the next call. */
  ready(): Promise<PostgresPool> {
    this.#ready ??= (async () => {
      let pool = this.#pool;
      if (!pool) {
        const pg = await loadPg();
        const made = new pg.Pool({ connectionString: this.#connectionString as string });
        // An idle connection the server drops is reported on the pool; the next query reports it to its caller.
        made.on('error', () => undefined);
        pool = made;
        this.#pool = made;
      }
      const client = await pool.connect();
      try {
        await migrate(client, this.#where);
      } finally {
        client.release();
      }
      return pool;
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /** Ends the pool if it was made here; the app's pool is left open. Never rejects. */
  async end(): Promise<void> {
    const ready = this.#ready;
    if (this.#own && ready) await ready.then((pool) => pool.end()).catch(() => undefined);
  }
}

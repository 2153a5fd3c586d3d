import type { PostgresClient, PostgresPool } from './load-pg.js';

/** Runs `work` in one transaction on one connection of the pool; a failure rolls it back. */
export async function inTransaction<T>(pool: PostgresPool, work: (client: PostgresClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    // A connection whose transaction could not be ended is not given back to the pool.
    client.release(broken);
  }
}

/** Runs `work`'s reads in one read-only snapshot: what another server commits meanwhile is seen whole or not at all. */
export async function inSnapshot<T>(pool: PostgresPool, work: (client: PostgresClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      return await work(client);
    } finally {
      // COMMIT ends a failed transaction too; a connection that cannot end it is not given back to the pool.
      await client.query('COMMIT').catch((error: Error) => {
        broken = error;
      });
    }
  } finally {
    client.release(broken);
  }
}

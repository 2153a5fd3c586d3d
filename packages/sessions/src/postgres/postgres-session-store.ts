import type {
  CreateSessionOptions,
  ForkSessionOptions,
  ListSessionsOptions,
  SessionInfo,
  SessionStore,
  SessionTurn,
  StoredSession,
} from '@agentloop/memory';
import { assertSessionId, SessionStoreError } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import { emptyUsage } from '@agentloop/spec';
import { BufferedTurn } from '../buffered-turn.js';
import { planFork } from '../fork-point.js';
import { leaseSettings, renewLease } from '../lock/lease.js';
import type { SessionWriter } from '../lock/session-writer.js';
import { newWriter, retireWriter } from '../lock/session-writer.js';
import { OpenSessions } from '../open-sessions.js';
import { loadRecordSchemas, recordSchemas } from '../records/load-record-schemas.js';
import { savedJson } from '../records/message-json.js';
import { checkTurn, newSessionId, stateAfterCommit, storedSession } from '../session-state.js';
import { sessionInfos } from '../sqlite/session-infos.js';
import { infoOf, stateOf, writerOfColumn } from '../sqlite/session-row.js';
import type { PostgresPool } from './load-pg.js';
import { describeConnection, postgresFailure } from './postgres-failure.js';
import { leaseHeld, leaseLocked, leaseLost } from './postgres-lease.js';
import { lockSessionLease, SESSION_COLUMNS, selectSessionRow } from './postgres-session-rows.js';
import { PostgresStorePool } from './postgres-store-pool.js';
import { inSnapshot, inTransaction } from './postgres-transaction.js';

/** Options of a PostgresSessionStore: a connection string, or a pool the app already has. */
export type PostgresSessionStoreOptions = (
  | {
      /** A PostgreSQL connection string (`postgres://user:password@host:5432/database`); the store makes its own pool. */
      connectionString: string;
      pool?: undefined;
    }
  | {
      /** A node-postgres `Pool` the app made; the store uses it and leaves it open on `close`. */
      pool: PostgresPool;
      connectionString?: undefined;
    }
) & {
  /** How long a session's write lock lasts without renewal, in milliseconds. Default 30,000. */
  leaseMs?: number;
  /** The clock a lease is read from, in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
};

/** A session this store has open for writing: the open turn waits here until its commit. */
interface OpenSession {
  writer: SessionWriter;
  /** The fencing token this store got when it took the session; a commit is refused once the row's differs. */
  fence: string;
  /** Stops the renewals of its lease (and waits for one in flight). */
  stopRenewal: () => Promise<void>;
  /** The open turn, written by its commit. */
  turn: BufferedTurn;
}

/**
 * Sessions in a PostgreSQL database, shared by several app servers. A turn is written in one transaction
 * at its commit, so a crash leaves every session as its last commit left it. A session's write lock is a
 * lease renewed while its holder lives: a holder that dies, on any machine, loses it when the lease ends,
 * and a fencing token, raised at each take-over and checked at every commit, refuses the turn of a holder
 * that was paused past its lease. The schema carries a version and migrates itself.
 */
export class PostgresSessionStore implements SessionStore {
  /** The database, for messages: `PostgreSQL database <name> on <host>`, never with a password. */
  readonly where: string;
  readonly #leaseMs: number;
  readonly #now: () => number;
  readonly #pool: PostgresStorePool;
  readonly #open = new OpenSessions<OpenSession>();

  constructor(options: PostgresSessionStoreOptions) {
    const { connectionString, pool } = options ?? {};
    if (pool === undefined && (typeof connectionString !== 'string' || connectionString === '')) {
      throw new SessionStoreError(
        'PostgresSessionStore needs a `connectionString` (postgres://user:password@host:5432/database) or a node-postgres `pool`.',
        { code: 'invalid_session' },
      );
    }
    ({ leaseMs: this.#leaseMs, now: this.#now } = leaseSettings('PostgresSessionStore', options));
    this.where =
      connectionString === undefined ? 'the PostgreSQL database of the pool' : describeConnection(connectionString);
    this.#pool = new PostgresStorePool({ connectionString, pool, where: this.where });
  }

  async create(options: CreateSessionOptions = {}): Promise<SessionInfo> {
    return this.#guard(options.id, async (pool) => {
      const id = newSessionId(options.id);
      const now = Date.now();
      try {
        await pool.query(
          `INSERT INTO agentloop_sessions (id, title, model, workspace, created_at, updated_at, usage)
           VALUES ($1, $2, $3, $4, $5, $5, $6)`,
          [
            id,
            options.title ?? null,
            options.model ?? null,
            options.workspace ?? null,
            now,
            JSON.stringify(emptyUsage()),
          ],
        );
      } catch (error) {
        if ((error as { code?: string }).code !== '23505') throw error;
        throw new SessionStoreError(`A session ${id} already exists in ${this.where}; choose another id.`, {
          code: 'session_exists',
          sessionId: id,
        });
      }
      return {
        id,
        title: options.title,
        model: options.model,
        workspace: options.workspace,
        createdAt: new Date(now),
        updatedAt: new Date(now),
        turnCount: 0,
        messageCount: 0,
        tokenCount: 0,
      };
    });
  }

  async open(sessionId: string): Promise<StoredSession> {
    return this.#guard(sessionId, async (pool) => {
      assertSessionId(sessionId);
      const already = this.#open.get(sessionId);
      if (already) {
        // Opening again starts again from the last commit.
        already.turn.drop();
        return this.#read(pool, sessionId);
      }
      const writer = newWriter();
      let fence: string;
      try {
        fence = await inTransaction(pool, async (client) => {
          const lease = await lockSessionLease(client, sessionId, this.where);
          if (leaseHeld(lease, this.#now())) throw leaseLocked(sessionId, lease, this.#leaseMs);
          const { rows } = await client.query(
            'UPDATE agentloop_sessions SET writer = $1, lease_until = $2, fence = fence + 1 WHERE id = $3 RETURNING fence::text AS fence',
            [JSON.stringify(writer), this.#now() + this.#leaseMs, sessionId],
          );
          return String(rows[0]?.fence);
        });
      } catch (error) {
        retireWriter(writer);
        throw error;
      }
      this.#open.add(sessionId, {
        writer,
        fence,
        stopRenewal: renewLease(this.#leaseMs, () => this.#renew(sessionId, fence)),
        turn: new BufferedTurn(),
      });
      return this.#read(pool, sessionId);
    });
  }

  async append(sessionId: string, message: Message): Promise<void> {
    this.#open.opened(sessionId, 'append to').turn.append(message);
  }

  async replace(sessionId: string, messages: readonly Message[]): Promise<void> {
    this.#open.opened(sessionId, 'replace the messages of').turn.replace(messages);
  }

  async commit(sessionId: string, turn: SessionTurn): Promise<void> {
    return this.#guard(sessionId, async (pool) => {
      const session = this.#open.opened(sessionId, 'commit to');
      checkTurn(sessionId, turn);
      const { replaced, added } = session.turn.take();
      await inTransaction(pool, async (client) => {
        const row = await selectSessionRow(client, sessionId, this.where, { forUpdate: true });
        // The fence, not the lease's time: a lease that ran out while nobody took the session over is still this writer's.
        if (row.fence !== session.fence || writerOfColumn(row.writer)?.token !== session.writer.token) {
          throw leaseLost(sessionId);
        }
        const record = recordSchemas().readSessionRow(row, this.where);
        const turnNumber = row.turn_count + 1;
        let position = row.message_count;
        if (replaced) {
          await client.query('DELETE FROM agentloop_messages WHERE session_id = $1', [sessionId]);
          position = 0;
        }
        const messages = [...(replaced ?? []), ...added];
        if (messages.length > 0) {
          await client.query(
            `INSERT INTO agentloop_messages (session_id, position, turn, message)
             SELECT $1, $2::int + ordinality::int - 1, $3, message FROM unnest($4::text[]) WITH ORDINALITY AS m(message, ordinality)`,
            [sessionId, position, turnNumber, messages],
          );
        }
        position += messages.length;
        const after = stateAfterCommit(stateOf(record), turn, position, new Date());
        const at = after.updatedAt.getTime();
        await client.query(
          'INSERT INTO agentloop_turns (session_id, turn, committed_at, exit, model, usage) VALUES ($1, $2, $3, $4, $5, $6)',
          [sessionId, turnNumber, at, turn.exit ?? null, turn.model ?? null, JSON.stringify(turn.usage)],
        );
        await client.query(
          `UPDATE agentloop_sessions SET title = $1, model = $2, updated_at = $3, turn_count = $4, message_count = $5,
             usage = $6, pending_question = $7, lease_until = $8 WHERE id = $9`,
          [
            after.title ?? null,
            after.model ?? null,
            at,
            after.turnCount,
            after.messageCount,
            JSON.stringify(after.usage),
            after.pendingQuestion ? JSON.stringify(after.pendingQuestion) : null,
            this.#now() + this.#leaseMs,
            sessionId,
          ],
        );
      });
    });
  }

  async release(sessionId: string): Promise<void> {
    const session = this.#open.take(sessionId);
    if (!session) return;
    await session.stopRenewal();
    retireWriter(session.writer);
    const pool = this.#pool.current;
    if (!pool) return;
    await this.#guardPlain(sessionId, () =>
      pool.query('UPDATE agentloop_sessions SET writer = NULL, lease_until = NULL WHERE id = $1 AND fence = $2', [
        sessionId,
        session.fence,
      ]),
    );
  }

  async load(sessionId: string): Promise<StoredSession> {
    return this.#guard(sessionId, async (pool) => {
      assertSessionId(sessionId);
      return this.#read(pool, sessionId);
    });
  }

  async list(options: ListSessionsOptions = {}): Promise<SessionInfo[]> {
    return this.#guard(undefined, async (pool) => {
      const limit = options.limit === undefined ? null : Math.max(0, Math.floor(options.limit));
      const { rows } =
        options.workspace === undefined
          ? await pool.query(
              `SELECT ${SESSION_COLUMNS} FROM agentloop_sessions ORDER BY updated_at DESC, id LIMIT $1`,
              [limit],
            )
          : await pool.query(
              `SELECT ${SESSION_COLUMNS} FROM agentloop_sessions WHERE workspace = $1 ORDER BY updated_at DESC, id LIMIT $2`,
              [options.workspace, limit],
            );
      return sessionInfos(rows, this.where);
    });
  }

  async delete(sessionId: string): Promise<void> {
    return this.#guard(sessionId, async (pool) => {
      assertSessionId(sessionId);
      await this.release(sessionId);
      await inTransaction(pool, async (client) => {
        const lease = await lockSessionLease(client, sessionId, this.where);
        if (leaseHeld(lease, this.#now())) throw leaseLocked(sessionId, lease, this.#leaseMs);
        await client.query('DELETE FROM agentloop_sessions WHERE id = $1', [sessionId]);
      });
    });
  }

  async fork(sessionId: string, options: ForkSessionOptions = {}): Promise<SessionInfo> {
    return this.#guard(sessionId, async (pool) => {
      const { id, title, model, workspace, messages } = planFork(sessionId, await this.#read(pool, sessionId), options);
      const now = Date.now();
      const kept = messages.length > 0;
      await inTransaction(pool, async (client) => {
        try {
          await client.query(
            `INSERT INTO agentloop_sessions (id, title, model, workspace, created_at, updated_at, turn_count, message_count,
               usage, forked_from, forked_at_message)
             VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $7)`,
            [
              id,
              title ?? null,
              model ?? null,
              workspace ?? null,
              now,
              kept ? 1 : 0,
              messages.length,
              JSON.stringify(emptyUsage()),
              sessionId,
            ],
          );
        } catch (error) {
          if ((error as { code?: string }).code !== '23505') throw error;
          throw new SessionStoreError(`A session ${id} already exists in ${this.where}; choose another id.`, {
            code: 'session_exists',
            sessionId: id,
          });
        }
        if (kept) {
          await client.query(
            `INSERT INTO agentloop_messages (session_id, position, turn, message)
             SELECT $1, ordinality::int - 1, 1, message FROM unnest($2::text[]) WITH ORDINALITY AS m(message, ordinality)`,
            [id, messages.map(savedJson)],
          );
          await client.query(
            'INSERT INTO agentloop_turns (session_id, turn, committed_at, usage) VALUES ($1, 1, $2, $3)',
            [id, now, JSON.stringify(emptyUsage())],
          );
        }
      });
      return infoOf(recordSchemas().readSessionRow(await selectSessionRow(pool, id, this.where), this.where));
    });
  }

  async close(): Promise<void> {
    if (this.#open.closed) return;
    try {
      await this.#open.close((sessionId) => this.release(sessionId));
    } finally {
      await this.#pool.end();
    }
  }

  /** Runs an operation on the pool; what node-postgres or the server throws becomes a SessionStoreError naming the database. */
  #guard<T>(sessionId: string | undefined, operation: (pool: PostgresPool) => Promise<T>): Promise<T> {
    return this.#guardPlain(sessionId, async () => {
      this.#open.assertNotClosed();
      const [pool] = await Promise.all([this.#pool.ready(), loadRecordSchemas()]);
      return operation(pool);
    });
  }

  async #guardPlain<T>(sessionId: string | undefined, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw postgresFailure(error, this.where, sessionId);
    }
  }

  /**
   * Extends the lease of an open session while this writer still holds it (its fence is the row's); false
   * when another writer took the session over. A renewal that fails (the server is down) leaves the lease
   * to run out, and the commit after says what happened.
   */
  async #renew(sessionId: string, fence: string): Promise<boolean> {
    const renewed = await this.#pool.current?.query(
      'UPDATE agentloop_sessions SET lease_until = $1 WHERE id = $2 AND fence = $3',
      [this.#now() + this.#leaseMs, sessionId, fence],
    );
    return renewed?.rowCount !== 0;
  }

  /** The session and its messages, read in one snapshot: a commit of another server is seen whole or not at all. */
  #read(pool: PostgresPool, sessionId: string): Promise<StoredSession> {
    return inSnapshot(pool, async (client) => {
      const row = await selectSessionRow(client, sessionId, this.where);
      const { rows } = await client.query(
        'SELECT message FROM agentloop_messages WHERE session_id = $1 ORDER BY position',
        [sessionId],
      );
      const record = recordSchemas().readSessionRow(row, this.where);
      const messages = rows.map((text, position) =>
        recordSchemas().readMessage(String(text.message), sessionId, position, this.where),
      );
      return storedSession(infoOf(record), stateOf(record), messages);
    });
  }
}

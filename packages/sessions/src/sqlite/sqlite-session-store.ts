import path from 'node:path';
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
import type { LeaseSettings } from '../lock/lease.js';
import { leasedWriter, leaseSettings, renewLease } from '../lock/lease.js';
import type { SessionWriter } from '../lock/session-writer.js';
import { isWriterLive, retireWriter, sessionLocked } from '../lock/session-writer.js';
import { OpenSessions } from '../open-sessions.js';
import { loadRecordSchemas, recordSchemas } from '../records/load-record-schemas.js';
import { savedJson } from '../records/message-json.js';
import { checkTurn, newSessionId, sessionNotFound, stateAfterCommit, storedSession } from '../session-state.js';
import { guarded, storeFailure } from '../store-failure.js';
import type { SqliteDatabase } from './load-sqlite.js';
import { openSqliteDatabase, writeUnsynced } from './open-sqlite-database.js';
import { sessionInfos } from './session-infos.js';
import type { SessionRow } from './session-row.js';
import { infoOf, stateOf, writerOfColumn } from './session-row.js';
import { SqliteStatements } from './sqlite-statements.js';

/** Options of a SqliteSessionStore. */
export interface SqliteSessionStoreOptions {
  /** The database file; its folder is made when missing. Several processes may use one file at once. */
  file: string;
  /** How long a write waits for another process's write to end before it fails, in milliseconds. Default 5,000. */
  busyTimeoutMs?: number;
  /**
   * How long a session's write lock lasts without renewal, in milliseconds (at least 1,000). The holder
   * renews it while it lives, so a holder on another machine sharing the file that died frees the session
   * when its lease ends; a holder on this machine that died frees it at once. Default 30,000.
   */
  leaseMs?: number;
  /** The clock a lease is read from, in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
}

/** A session this store has open for writing: the open turn waits here, as JSON, until its commit. */
interface OpenSession {
  writer: SessionWriter;
  /** The open turn, written by its commit. */
  turn: BufferedTurn;
  /** Stops the renewals of its lease. */
  stopRenewal: () => Promise<void>;
}

/**
 * Sessions in one SQLite database (through better-sqlite3), in WAL mode: readers never wait for a writer,
 * and several processes may write their own sessions in one file at once. A turn is written in one
 * transaction at its commit (the messages the agent appended wait in memory until then), so a crash leaves
 * every session as its last commit left it. The schema carries a version and migrates itself.
 */
export class SqliteSessionStore implements SessionStore {
  /** The database file. */
  readonly file: string;
  readonly #db: SqliteDatabase;
  readonly #statements: SqliteStatements;
  readonly #open = new OpenSessions<OpenSession>();
  readonly #lease: LeaseSettings;

  constructor(options: SqliteSessionStoreOptions) {
    if (typeof options?.file !== 'string' || options.file === '') {
      throw new SessionStoreError('SqliteSessionStore needs the `file` of its database.', { code: 'invalid_session' });
    }
    this.file = path.resolve(options.file);
    this.#lease = leaseSettings('SqliteSessionStore', options);
    const db = openSqliteDatabase(this.file, options);
    try {
      this.#statements = new SqliteStatements(db);
    } catch (error) {
      db.close();
      throw storeFailure(error, { file: this.file });
    }
    this.#db = db;
  }

  async create(options: CreateSessionOptions = {}): Promise<SessionInfo> {
    return this.#guard(
      options.id,
      async () => {
        this.#open.assertNotClosed();
        const id = newSessionId(options.id);
        const now = Date.now();
        this.#unsynced(() =>
          this.#insertSession({
            id,
            title: options.title ?? null,
            model: options.model ?? null,
            workspace: options.workspace ?? null,
            created_at: now,
            updated_at: now,
            turn_count: 0,
            message_count: 0,
            usage: JSON.stringify(emptyUsage()),
            pending_question: null,
            forked_from: null,
            forked_at_message: null,
            writer: null,
          }),
        );
        // The row just written, as written: reading it back would only check what this store made.
        return infoOf({
          id,
          title: options.title ?? null,
          model: options.model ?? null,
          workspace: options.workspace ?? null,
          createdAt: new Date(now),
          updatedAt: new Date(now),
          turnCount: 0,
          messageCount: 0,
          usage: emptyUsage(),
          pendingQuestion: null,
          forkedFrom: null,
          forkedAtMessage: null,
        });
      },
      false,
    );
  }

  async open(sessionId: string): Promise<StoredSession> {
    return this.#guard(sessionId, async () => {
      this.#open.assertNotClosed();
      assertSessionId(sessionId);
      const already = this.#open.get(sessionId);
      if (already) {
        // Opening again starts again from the last commit.
        already.turn.drop();
        return this.#read(sessionId);
      }
      const { writer, now } = leasedWriter(this.#lease);
      try {
        this.#unsynced(() =>
          this.#db
            .transaction(() => {
              const row = this.#statements.writerOf.get(sessionId) as { writer: string | null } | undefined;
              if (!row) throw sessionNotFound(sessionId, this.file);
              const holder = writerOfColumn(row.writer);
              if (holder && isWriterLive(holder, now))
                throw sessionLocked(sessionId, holder, this.#unlockAdvice(sessionId));
              this.#statements.setWriter.run(JSON.stringify(writer), sessionId);
            })
            .immediate(),
        );
      } catch (error) {
        retireWriter(writer);
        throw error;
      }
      this.#open.add(sessionId, {
        writer,
        turn: new BufferedTurn(),
        stopRenewal: renewLease(this.#lease.leaseMs, async () => this.#renew(sessionId, writer)),
      });
      return this.#read(sessionId);
    });
  }

  async append(sessionId: string, message: Message): Promise<void> {
    this.#open.opened(sessionId, 'append to').turn.append(message);
  }

  async replace(sessionId: string, messages: readonly Message[]): Promise<void> {
    this.#open.opened(sessionId, 'replace the messages of').turn.replace(messages);
  }

  async commit(sessionId: string, turn: SessionTurn): Promise<void> {
    return this.#guard(sessionId, async () => {
      const session = this.#open.opened(sessionId, 'commit to');
      checkTurn(sessionId, turn);
      const { replaced, added } = session.turn.take();
      this.#db
        .transaction(() => {
          const row = this.#statements.session.get(sessionId) as SessionRow | undefined;
          if (!row) throw sessionNotFound(sessionId, this.file);
          const holder = writerOfColumn(row.writer);
          const record = recordSchemas().readSessionRow(row, this.file);
          if (holder?.token !== session.writer.token) {
            throw new SessionStoreError(
              `Session ${sessionId} lost its lock (another process took it while this one had it open), so the turn was not saved. Open the session again.`,
              { code: 'session_locked', sessionId },
            );
          }
          const turnNumber = row.turn_count + 1;
          let position = row.message_count;
          if (replaced) {
            this.#statements.deleteMessages.run(sessionId);
            position = 0;
            for (const message of replaced)
              this.#statements.insertMessage.run(sessionId, position++, turnNumber, message);
          }
          for (const message of added) this.#statements.insertMessage.run(sessionId, position++, turnNumber, message);
          const after = stateAfterCommit(stateOf(record), turn, position, new Date());
          const at = after.updatedAt.getTime();
          this.#statements.insertTurn.run(
            sessionId,
            turnNumber,
            at,
            turn.exit ?? null,
            turn.model ?? null,
            JSON.stringify(turn.usage),
          );
          this.#statements.updateAfterCommit.run(
            after.title ?? null,
            after.model ?? null,
            at,
            after.turnCount,
            after.messageCount,
            JSON.stringify(after.usage),
            after.pendingQuestion ? JSON.stringify(after.pendingQuestion) : null,
            sessionId,
          );
        })
        .immediate();
    });
  }

  async release(sessionId: string): Promise<void> {
    return this.#guard(sessionId, async () => {
      const session = this.#open.take(sessionId);
      if (!session) return;
      await session.stopRenewal();
      try {
        this.#unsynced(() => this.#statements.clearWriter.run(sessionId, session.writer.token));
      } finally {
        retireWriter(session.writer);
      }
    });
  }

  async load(sessionId: string): Promise<StoredSession> {
    return this.#guard(sessionId, async () => {
      this.#open.assertNotClosed();
      assertSessionId(sessionId);
      return this.#read(sessionId);
    });
  }

  async list(options: ListSessionsOptions = {}): Promise<SessionInfo[]> {
    return this.#guard(undefined, async () => {
      this.#open.assertNotClosed();
      const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
      const rows = (
        options.workspace === undefined
          ? this.#statements.list.all(limit)
          : this.#statements.listInWorkspace.all(options.workspace, limit)
      ) as unknown[];
      return sessionInfos(rows, this.file);
    });
  }

  async delete(sessionId: string): Promise<void> {
    return this.#guard(sessionId, async () => {
      this.#open.assertNotClosed();
      assertSessionId(sessionId);
      await this.release(sessionId);
      this.#db
        .transaction(() => {
          const row = this.#statements.writerOf.get(sessionId) as { writer: string | null } | undefined;
          if (!row) throw sessionNotFound(sessionId, this.file);
          const holder = writerOfColumn(row.writer);
          if (holder && isWriterLive(holder, this.#lease.now())) {
            throw sessionLocked(sessionId, holder, this.#unlockAdvice(sessionId));
          }
          this.#statements.deleteSession.run(sessionId);
        })
        .immediate();
    });
  }

  async fork(sessionId: string, options: ForkSessionOptions = {}): Promise<SessionInfo> {
    return this.#guard(sessionId, async () => {
      this.#open.assertNotClosed();
      const { id, title, model, workspace, messages } = planFork(sessionId, this.#read(sessionId), options);
      const now = Date.now();
      const kept = messages.length > 0;
      this.#db.transaction(() => {
        this.#insertSession({
          id,
          title: title ?? null,
          model: model ?? null,
          workspace: workspace ?? null,
          created_at: now,
          updated_at: now,
          turn_count: kept ? 1 : 0,
          message_count: messages.length,
          usage: JSON.stringify(emptyUsage()),
          pending_question: null,
          forked_from: sessionId,
          forked_at_message: messages.length,
          writer: null,
        });
        messages.forEach((message, position) => {
          this.#statements.insertMessage.run(id, position, 1, savedJson(message));
        });
        if (kept) this.#statements.insertTurn.run(id, 1, now, null, null, JSON.stringify(emptyUsage()));
      })();
      return this.#info(id);
    });
  }

  async close(): Promise<void> {
    if (this.#open.closed) return;
    try {
      await this.#open.close((sessionId) => this.release(sessionId));
    } finally {
      this.#db.close();
    }
  }

  /**
   * Runs an operation; what the file system or SQLite throws becomes a SessionStoreError naming the file.
   * One that reads saved records loads their schemas first (`reads`, the default); creating a session
   * reads none, so a process that only starts a session never loads zod.
   */
  #guard<T>(sessionId: string | undefined, operation: () => Promise<T>, reads = true): Promise<T> {
    return guarded({ file: this.file, ...(sessionId === undefined ? {} : { sessionId }) }, async () => {
      if (reads) await loadRecordSchemas();
      return operation();
    });
  }

  /** Extends `writer`'s lease while it still holds the session; false when another writer took it. */
  #renew(sessionId: string, writer: SessionWriter): boolean {
    const leaseUntil = this.#lease.now() + this.#lease.leaseMs;
    const { changes } = this.#unsynced(() =>
      this.#statements.renewWriter.run(JSON.stringify({ ...writer, leaseUntil }), sessionId, writer.token),
    );
    if (changes > 0) writer.leaseUntil = leaseUntil;
    return changes > 0;
  }

  /** See writeUnsynced: a write a power cut may lose without harm. */
  #unsynced<T>(write: () => T): T {
    return writeUnsynced(this.#db, write);
  }

  #insertSession(row: SessionRow): void {
    try {
      this.#statements.insertSession.run(row);
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error;
      throw new SessionStoreError(`A session ${row.id} already exists in ${this.file}; choose another id.`, {
        code: 'session_exists',
        sessionId: row.id,
      });
    }
  }

  #info(sessionId: string): SessionInfo {
    const row = this.#statements.session.get(sessionId) as SessionRow | undefined;
    if (!row) throw sessionNotFound(sessionId, this.file);
    return infoOf(recordSchemas().readSessionRow(row, this.file));
  }

  /** The session and its messages, read in one transaction: a commit of another process is seen whole or not at all. */
  #read(sessionId: string): StoredSession {
    return this.#db.transaction(() => {
      const row = this.#statements.session.get(sessionId) as SessionRow | undefined;
      if (!row) throw sessionNotFound(sessionId, this.file);
      const texts = this.#statements.messages.pluck().all(sessionId) as string[];
      const record = recordSchemas().readSessionRow(row, this.file);
      const messages = texts.map((text, position) => recordSchemas().readMessage(text, sessionId, position, this.file));
      const state = stateOf(record);
      return storedSession(infoOf(record), state, messages);
    })();
  }

  #unlockAdvice(sessionId: string): string {
    return `sqlite3 "${this.file}" "UPDATE sessions SET writer = NULL WHERE id = '${sessionId}'"`;
  }
}

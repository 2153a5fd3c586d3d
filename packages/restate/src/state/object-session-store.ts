import type {
  CreateSessionOptions,
  ForkSessionOptions,
  SessionInfo,
  SessionStore,
  SessionTurn,
  StoredSession,
} from '@agentloop/memory';
import { SessionStoreError } from '@agentloop/memory';
import type { Message, Usage } from '@agentloop/spec';
import { addUsage, emptyUsage } from '@agentloop/spec';
import type { ObjectContext } from '@restatedev/restate-sdk';
import {
  checkedSessionRecord,
  DURABLE_SESSION_VERSION,
  type DurableSessionRecord,
  storedSessionOf,
} from './durable-session-record.js';

/** The state key of the session record. */
export const SESSION_STATE_KEY = 'session';

/** The turn being written: the conversation as the turn left it so far. */
interface OpenTurn {
  record: DurableSessionRecord;
  messages: Message[];
}

/**
 * The session of one durable agent, kept in its Virtual Object's state: a SessionStore over
 * `ctx.get`/`ctx.set` for the one session the object is keyed by. The object's key is the lock (Restate
 * runs one exclusive handler per key at a time, across workers), so `open` takes none. A turn's messages
 * are gathered in memory and written with one `ctx.set` at its commit: a run that dies before its end is
 * replayed from the journal, which rebuilds the turn, so nothing is lost by not writing each message.
 */
export class ObjectSessionStore implements SessionStore {
  readonly #context: ObjectContext;
  readonly #sessionId: string;
  #turn: OpenTurn | undefined;

  constructor(context: ObjectContext) {
    this.#context = context;
    this.#sessionId = context.key;
  }

  async create(options: CreateSessionOptions = {}): Promise<SessionInfo> {
    this.#checkId(options.id ?? this.#sessionId);
    if ((await this.#context.get(SESSION_STATE_KEY)) !== null) {
      throw new SessionStoreError(`Session ${this.#sessionId} exists already.`, {
        code: 'session_exists',
        sessionId: this.#sessionId,
      });
    }
    const now = new Date(await this.#context.date.now()).toISOString();
    const record: DurableSessionRecord = {
      schemaVersion: DURABLE_SESSION_VERSION,
      info: {
        id: this.#sessionId,
        title: options.title,
        model: options.model,
        workspace: options.workspace,
        createdAt: now,
        updatedAt: now,
        turnCount: 0,
        messageCount: 0,
        tokenCount: 0,
      },
      messages: [],
      usage: emptyUsage(),
    };
    this.#context.set(SESSION_STATE_KEY, record);
    return storedSessionOf(record).info;
  }

  async open(sessionId: string): Promise<StoredSession> {
    const record = await this.#read(sessionId);
    this.#turn = { record, messages: [...record.messages] };
    return storedSessionOf(record);
  }

  async append(sessionId: string, message: Message): Promise<void> {
    this.#openTurn(sessionId).messages.push(message);
  }

  async replace(sessionId: string, messages: readonly Message[]): Promise<void> {
    this.#openTurn(sessionId).messages = [...messages];
  }

  async commit(sessionId: string, turn: SessionTurn): Promise<void> {
    const open = this.#openTurn(sessionId);
    const usage: Usage = addUsage(open.record.usage, turn.usage);
    const now = new Date(await this.#context.date.now()).toISOString();
    const record: DurableSessionRecord = {
      schemaVersion: DURABLE_SESSION_VERSION,
      info: {
        ...open.record.info,
        title: open.record.info.title ?? turn.title,
        model: turn.model ?? open.record.info.model,
        updatedAt: now,
        turnCount: open.record.info.turnCount + 1,
        messageCount: open.messages.length,
        tokenCount: usage.inputTokens + usage.outputTokens,
      },
      messages: open.messages,
      usage,
      ...(turn.pendingQuestion ? { pendingQuestion: turn.pendingQuestion } : {}),
    };
    this.#context.set(SESSION_STATE_KEY, record);
    this.#turn = { record, messages: [...record.messages] };
  }

  async release(_sessionId?: string): Promise<void> {
    this.#turn = undefined;
  }

  async load(sessionId: string): Promise<StoredSession> {
    return storedSessionOf(await this.#read(sessionId));
  }

  async list(): Promise<SessionInfo[]> {
    const value = await this.#context.get(SESSION_STATE_KEY);
    return value === null ? [] : [storedSessionOf(checkedSessionRecord(this.#sessionId, value)).info];
  }

  async delete(sessionId: string): Promise<void> {
    await this.#read(sessionId);
    this.#context.clear(SESSION_STATE_KEY);
    this.#turn = undefined;
  }

  async fork(_sessionId: string, _options?: ForkSessionOptions): Promise<SessionInfo> {
    throw new SessionStoreError(
      'A durable agent keeps one session per Virtual Object and cannot fork it into another object. Load it with `state` and start the new session with its messages.',
      { code: 'store_unavailable', sessionId: this.#sessionId },
    );
  }

  async close(): Promise<void> {
    this.#turn = undefined;
  }

  async #read(sessionId: string): Promise<DurableSessionRecord> {
    this.#checkId(sessionId);
    const value = await this.#context.get(SESSION_STATE_KEY);
    if (value === null) {
      throw new SessionStoreError(`Session ${sessionId} has no conversation yet.`, {
        code: 'session_not_found',
        sessionId,
      });
    }
    return checkedSessionRecord(sessionId, value);
  }

  #openTurn(sessionId: string): OpenTurn {
    this.#checkId(sessionId);
    if (!this.#turn) {
      throw new SessionStoreError(`Session ${sessionId} is not open: call open() before writing to it.`, {
        code: 'session_not_open',
        sessionId,
      });
    }
    return this.#turn;
  }

  /** The object holds the session of its own key, and no other. */
  #checkId(sessionId: string): void {
    if (sessionId !== this.#sessionId) {
      throw new SessionStoreError(
        `This store keeps session ${this.#sessionId} (its Virtual Object's key), not ${sessionId}.`,
        { code: 'session_not_found', sessionId },
      );
    }
  }
}

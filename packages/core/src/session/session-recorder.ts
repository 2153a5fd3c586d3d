import type {
  CreateSessionOptions,
  Memory,
  PendingQuestion,
  SessionStore,
  SessionTurn,
  StoredSession,
} from '@agentloop/memory';
import { MEMORY_SCHEMA_VERSION, SessionStoreError } from '@agentloop/memory';
import type { Message, Usage } from '@agentloop/spec';
import { AgentloopError, addUsage, emptyUsage } from '@agentloop/spec';
import type { MemoryChanges } from './recording-memory.js';
import { RecordingMemory } from './recording-memory.js';
import { sessionStoreFailure } from './session-store-failure.js';
import { sessionTitle } from './session-title.js';

/** Options of a SessionRecorder. */
export interface SessionRecorderOptions {
  store: SessionStore;
  sessionId: string;
  /** The agent's memory: the recorder restores the session into it, and records its changes. */
  memory: Memory;
  /** What a session created for the agent starts with. */
  create: Omit<CreateSessionOptions, 'id'>;
  /** Called once the session is open, with what the store held. */
  onOpen?: (stored: StoredSession) => void;
}

/**
 * Keeps an agent's conversation in a SessionStore. Opening resumes the session into the memory (creating
 * it when the store has none with that id); from then on every message the loop appends is handed to the
 * store at once, in order, and each run's end commits the turn. Changes made between runs (an app's own
 * append, a compaction on demand) are committed as a turn of their own.
 *
 * A turn that fails to save is dropped by the store, and the next commit writes the whole conversation
 * again, so the store never holds a history with a hole in it.
 */
export class SessionRecorder implements MemoryChanges {
  readonly store: SessionStore;
  readonly sessionId: string;
  /** The memory the agent uses: the given one, with its changes recorded. */
  readonly memory: RecordingMemory;
  readonly #inner: Memory;
  readonly #create: Omit<CreateSessionOptions, 'id'>;
  readonly #onOpen: ((stored: StoredSession) => void) | undefined;
  #opening: Promise<StoredSession> | undefined;
  #open = false;
  /** Changes made before the session was open: applied after the stored conversation. */
  #early: Message[] = [];
  #earlyReplaced = false;
  /** The store's writes, one after the other. */
  #chain: Promise<void> = Promise.resolve();
  /** The first failed write of the open turn; its commit fails with it. */
  #failure: unknown;
  /** A turn was lost: the next commit writes the whole conversation first. */
  #rewriteAll = false;
  #inTurn = false;
  #outsideTurnChanges = false;
  #title: string | undefined;
  #usage: Usage = emptyUsage();

  constructor(options: SessionRecorderOptions) {
    this.store = options.store;
    this.sessionId = options.sessionId;
    this.#inner = options.memory;
    this.#create = options.create;
    this.#onOpen = options.onOpen;
    this.memory = new RecordingMemory(options.memory, this);
  }

  /** The token usage of the session's committed turns, added up. */
  get usage(): Usage {
    return this.#usage;
  }

  /** True once the session is open. */
  get isOpen(): boolean {
    return this.#open;
  }

  /**
   * Opens the session: takes its write lock, creates it when the store has none with this id, and restores
   * its conversation into the memory. Once: later calls get the same answer.
   */
  open(): Promise<StoredSession> {
    this.#opening ??= this.#openStore().catch((error: unknown) => {
      this.#opening = undefined;
      throw sessionStoreFailure(error, this.sessionId, 'opened');
    });
    return this.#opening;
  }

  /** A run starts: changes made since the last one are committed first, as their own turn. */
  async beginTurn(): Promise<void> {
    this.#commitOutsideTurn();
    this.#inTurn = true;
    try {
      await this.open();
    } catch (error) {
      this.#inTurn = false;
      throw error;
    }
  }

  /**
   * A run ended: commits its turn, and resolves once it is saved. Rejects with a SessionStoreError when
   * it could not be (a store's own failure, a full disk, a read-only folder, is wrapped in one); the turns
   * saved before stay as they were, and the next commit writes the whole conversation.
   */
  async saveTurn(turn: Omit<SessionTurn, 'title'>): Promise<void> {
    this.#inTurn = false;
    if (!this.#open) return;
    await this.#enqueueCommit(turn);
  }

  /** Saves what is pending and gives the session's write lock up; a later `open` takes it again. */
  async close(): Promise<void> {
    this.#commitOutsideTurn();
    await this.#chain;
    if (!this.#open) return;
    this.#open = false;
    this.#opening = undefined;
    await this.store.release(this.sessionId);
  }

  appended(messages: readonly Message[]): void {
    if (!this.#open) {
      if (!this.#earlyReplaced) this.#early.push(...messages);
      return;
    }
    for (const message of messages) this.#enqueue(() => this.store.append(this.sessionId, message));
    this.#noteOutsideTurn();
  }

  replaced(messages: readonly Message[]): void {
    if (!this.#open) {
      this.#earlyReplaced = true;
      this.#early = [];
      return;
    }
    const conversation = [...messages];
    this.#enqueue(() => this.store.replace(this.sessionId, conversation));
    this.#noteOutsideTurn();
  }

  async #openStore(): Promise<StoredSession> {
    const stored = await this.#openOrCreate();
    try {
      this.#resume(stored);
    } catch (error) {
      await this.store.release(this.sessionId).catch(() => {});
      throw new SessionStoreError(
        `Session ${this.sessionId} cannot be resumed: ${AgentloopError.from(error).message}`,
        {
          code: 'invalid_session',
          sessionId: this.sessionId,
          cause: error,
        },
      );
    }
    this.#open = true;
    this.#title = stored.info.title;
    this.#usage = stored.usage;
    this.#onOpen?.(stored);
    return stored;
  }

  async #openOrCreate(): Promise<StoredSession> {
    try {
      return await this.store.open(this.sessionId);
    } catch (error) {
      if (!isCode(error, 'session_not_found')) throw error;
    }
    try {
      await this.store.create({ ...this.#create, id: this.sessionId });
    } catch (error) {
      // Another process created it meanwhile: open it like any other.
      if (!isCode(error, 'session_exists')) throw error;
    }
    return this.store.open(this.sessionId);
  }

  /** Puts the stored conversation into the memory, and queues what the memory holds beyond it. */
  #resume(stored: StoredSession): void {
    const early = this.#early;
    const earlyReplaced = this.#earlyReplaced;
    this.#early = [];
    this.#earlyReplaced = false;
    if (stored.messages.length === 0 || earlyReplaced) {
      // A new session starts with what the memory holds; so does one the app replaced before it was open.
      if (this.#inner.messages().length > 0) {
        const conversation = [...this.#inner.messages()];
        this.#enqueue(() => this.store.replace(this.sessionId, conversation));
      }
      return;
    }
    this.#inner.restore({ schemaVersion: MEMORY_SCHEMA_VERSION, messages: [...stored.messages, ...early] });
    for (const message of early) this.#enqueue(() => this.store.append(this.sessionId, message));
  }

  #enqueue(write: () => Promise<void>): void {
    this.#chain = this.#chain.then(async () => {
      // The turn already failed: it is dropped at its commit, so writing more of it is of no use.
      if (this.#failure !== undefined) return;
      try {
        await write();
      } catch (error) {
        this.#failure = error;
      }
    });
  }

  #enqueueCommit(turn: Omit<SessionTurn, 'title'>): Promise<void> {
    // Taken now: the conversation as this turn leaves it, written whole when an earlier turn was lost.
    const conversation = [...this.#inner.messages()];
    const title = this.#title === undefined ? sessionTitle(conversation) : undefined;
    const commit = this.#chain.then(() => this.#commit({ ...turn, ...(title ? { title } : {}) }, conversation));
    this.#chain = commit.catch(() => {});
    return commit;
  }

  async #commit(turn: SessionTurn, conversation: readonly Message[]): Promise<void> {
    try {
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#rewriteAll) await this.store.replace(this.sessionId, conversation);
      await this.store.commit(this.sessionId, turn);
    } catch (error) {
      this.#failure = undefined;
      this.#rewriteAll = true;
      // Opening again makes the store drop what it holds of the turn, so the next one starts clean.
      await this.store.open(this.sessionId).catch(() => {});
      throw sessionStoreFailure(error, this.sessionId, 'saved');
    }
    this.#rewriteAll = false;
    this.#title ??= turn.title;
    this.#usage = addUsage(this.#usage, turn.usage);
  }

  /** A change between runs: committed as a turn of its own, once the current task is done. */
  #noteOutsideTurn(): void {
    if (this.#inTurn || this.#outsideTurnChanges) return;
    this.#outsideTurnChanges = true;
    queueMicrotask(() => this.#commitOutsideTurn());
  }

  #commitOutsideTurn(): void {
    if (!this.#outsideTurnChanges) return;
    this.#outsideTurnChanges = false;
    // Nobody waits for this commit: when it fails, the next one writes the whole conversation.
    this.#enqueueCommit({ usage: emptyUsage() }).catch(() => {});
  }
}

/** The question a pending `ask_question` left, as a store keeps it. */
export function pendingQuestionOf(payload: unknown): PendingQuestion | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { question, suggestions } = payload as { question?: unknown; suggestions?: unknown };
  if (typeof question !== 'string') return undefined;
  return Array.isArray(suggestions) ? { question, suggestions: suggestions.map(String) } : { question };
}

function isCode(error: unknown, code: string): boolean {
  return AgentloopError.isInstance(error) && error.code === code;
}

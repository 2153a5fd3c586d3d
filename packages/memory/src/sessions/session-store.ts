import type { Message, Usage } from '@agentloop/spec';

/**
 * Keeps sessions: conversations with an id that outlive one process. The agent writes a session in turns
 * (a turn is what one run added): `open` takes the session's write lock, `append` adds each message as
 * the loop adds it, `commit` ends the turn. A turn becomes visible to `load` whole at its commit, or never:
 * a process killed in the middle of a turn leaves the session as its last commit left it.
 *
 * Only one writer holds a session at a time, across processes: `open` refuses a session another live
 * writer holds with a `session_locked` SessionStoreError. Reading (`load`, `list`) never waits for a
 * writer. `@agentloop/sessions` has two stores: JSON lines files and SQLite.
 *
 * A session id is 1 to 128 letters, digits, `-`, `_` or `.`, not starting with `.` (it may name a file).
 */
export interface SessionStore {
  /** Starts an empty session; refuses an id that is taken (`session_exists`). Does not open it. */
  create(options?: CreateSessionOptions): Promise<SessionInfo>;
  /**
   * Takes the session's write lock and returns what it holds. A turn a crashed writer left unfinished is
   * dropped here. Throws `session_not_found`, or `session_locked` while another live writer holds it.
   */
  open(sessionId: string): Promise<StoredSession>;
  /** Adds a message to the open turn; it becomes visible at the turn's commit. Needs `open` first. */
  append(sessionId: string, message: Message): Promise<void>;
  /**
   * Replaces the whole conversation with `messages` from the open turn on (a compaction or a restore
   * rewrote it); messages appended after it follow them. Visible at the turn's commit, like an append.
   */
  replace(sessionId: string, messages: readonly Message[]): Promise<void>;
  /** Ends the open turn: what it added becomes visible and durable at once, with the turn's figures. */
  commit(sessionId: string, turn: SessionTurn): Promise<void>;
  /** Gives the write lock up; a turn not committed is dropped. Does nothing for a session not open. */
  release(sessionId: string): Promise<void>;
  /** What the session holds, as of its last commit. Throws `session_not_found`. Takes no lock. */
  load(sessionId: string): Promise<StoredSession>;
  /** The sessions, the most recently updated first. */
  list(options?: ListSessionsOptions): Promise<SessionInfo[]>;
  /** Deletes a session; refuses one another live writer holds (`session_locked`). Throws `session_not_found`. */
  delete(sessionId: string): Promise<void>;
  /**
   * A new session holding the first messages of another (all by default), as one committed turn. Refuses a
   * cut that would leave a tool call without its result (`invalid_fork_point`). Does not open it.
   */
  fork(sessionId: string, options?: ForkSessionOptions): Promise<SessionInfo>;
  /** Releases every session this store opened and frees what it holds (a file handle, a database). */
  close(): Promise<void>;
}

/** What a list shows of a session. */
export interface SessionInfo {
  /** The session's id. */
  id: string;
  /** A short title: the first input, unless one was given. */
  title: string | undefined;
  /** The model that answered last. */
  model: string | undefined;
  /** The directory the session worked in, when it was created with one. */
  workspace: string | undefined;
  /** When the session was created. */
  createdAt: Date;
  /** When its last turn was committed (its creation, before any). */
  updatedAt: Date;
  /** How many turns were committed. */
  turnCount: number;
  /** How many messages the conversation holds. */
  messageCount: number;
  /** Input and output tokens the session's model calls used, added up over its turns. */
  tokenCount: number;
  /** The session this one was forked from, and how many of its messages it kept. */
  forkedFrom?: { sessionId: string; messageCount: number };
}

/** A session as its last commit left it. */
export interface StoredSession {
  /** What a list shows of it. */
  info: SessionInfo;
  /** The conversation, oldest first, in a history a provider accepts. */
  messages: Message[];
  /** The token usage of its turns, added up. */
  usage: Usage;
  /** The question the last turn ended with (an `ask_question` exit): the next input answers it. */
  pendingQuestion: PendingQuestion | undefined;
}

/** A question the agent asked the user and waits on. */
export interface PendingQuestion {
  /** The question. */
  question: string;
  /** Answers the user can pick from. */
  suggestions?: string[];
}

/** What a commit records of the turn it ends. */
export interface SessionTurn {
  /** The token usage of the turn's model calls. */
  usage: Usage;
  /** How the turn's run ended (an AgentResult's `exit`). */
  exit?: string;
  /** Set when the turn ended with a question for the user. */
  pendingQuestion?: PendingQuestion;
  /** The model that answered; becomes the session's model. */
  model?: string;
  /** Becomes the session's title when it has none yet. */
  title?: string;
}

/** Options of `SessionStore.create`. */
export interface CreateSessionOptions {
  /** The id. Default: a random UUID. */
  id?: string;
  /** The title; by default the agent gives the first input. */
  title?: string;
  /** The model. */
  model?: string;
  /** The directory the session works in, for `list({ workspace })`. */
  workspace?: string;
}

/** Options of `SessionStore.list`. */
export interface ListSessionsOptions {
  /** Only the sessions created with this workspace. */
  workspace?: string;
  /** At most this many, the most recent ones. */
  limit?: number;
}

/** Options of `SessionStore.fork`. */
export interface ForkSessionOptions {
  /** How many messages from the start the new session keeps. Default: all of them. */
  keepMessages?: number;
  /** The new session's id. Default: a random UUID. */
  id?: string;
  /** The new session's title. Default: the original's. */
  title?: string;
}

import { AgentloopError } from '@agentloop/spec';

/** What went wrong in a session store. */
export type SessionStoreErrorCode =
  /** No session has this id. */
  | 'session_not_found'
  /** `create` or `fork` was given an id that is taken. */
  | 'session_exists'
  /** Another live writer (another process, or another store in this one) holds the session. */
  | 'session_locked'
  /** `append`, `replace` or `commit` on a session this store has not opened. */
  | 'session_not_open'
  /** An id that breaks the rule of the SessionStore contract. */
  | 'invalid_session_id'
  /** Saved data that cannot be read back: a damaged file or row. */
  | 'invalid_session'
  /** Data saved by a newer version of the store. */
  | 'unsupported_session_version'
  /** A fork that would cut a tool call from its result, or keep more messages than there are. */
  | 'invalid_fork_point'
  /** The store was closed. */
  | 'session_store_closed'
  /** The store cannot work here: what it needs (a native module) is missing. */
  | 'store_unavailable'
  /**
   * The store could not read or write its files: a full disk, a read-only or unreadable folder, an I/O
   * error. The message names the file and what to do; `cause` is the system's own error.
   */
  | 'store_failed'
  /** The store's file is damaged (not a database, a corrupt page): the message names it and says what to do. */
  | 'store_damaged';

/** An error of a SessionStore, with a message that says what was wrong and what to do. */
export class SessionStoreError extends AgentloopError<SessionStoreErrorCode> {
  /** The session it is about, when there is one. */
  readonly sessionId: string | undefined;

  constructor(message: string, options: { code: SessionStoreErrorCode; sessionId?: string; cause?: unknown }) {
    super(message, { code: options.code, ...(options.cause === undefined ? {} : { cause: options.cause }) });
    this.sessionId = options.sessionId;
  }
}

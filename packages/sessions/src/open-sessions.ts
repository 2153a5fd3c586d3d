import { sessionNotOpen, storeClosed } from './session-state.js';

/**
 * The sessions a store has open for writing, by id, and whether the store was closed: the bookkeeping both
 * stores share. What a store keeps of an open session (a file handle, a turn in memory) is its own.
 */
export class OpenSessions<Session> {
  readonly #sessions = new Map<string, Session>();
  #closed = false;

  /** True once the store was closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Throws `session_store_closed` once the store was closed. */
  assertNotClosed(): void {
    if (this.#closed) throw storeClosed();
  }

  /** The open session `sessionId`, for `operation` ("append to"); throws `session_not_open` when there is none. */
  opened(sessionId: string, operation: string): Session {
    this.assertNotClosed();
    const session = this.#sessions.get(sessionId);
    if (session === undefined) throw sessionNotOpen(sessionId, operation);
    return session;
  }

  get(sessionId: string): Session | undefined {
    return this.#sessions.get(sessionId);
  }

  has(sessionId: string): boolean {
    return this.#sessions.has(sessionId);
  }

  add(sessionId: string, session: Session): void {
    this.#sessions.set(sessionId, session);
  }

  /** Forgets an open session, and gives it back for its release; undefined when it was not open. */
  take(sessionId: string): Session | undefined {
    const session = this.#sessions.get(sessionId);
    this.#sessions.delete(sessionId);
    return session;
  }

  /**
   * Closes the store: every open session is released with `release`, all of them even when one fails (the
   * first failure is thrown after). Does nothing when it was closed already.
   */
  async close(release: (sessionId: string) => Promise<void>): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const failures: unknown[] = [];
    for (const sessionId of [...this.#sessions.keys()]) await release(sessionId).catch((error) => failures.push(error));
    if (failures.length > 0) throw failures[0];
  }
}

import type { AgentContext, SessionUpdate } from '@agentclientprotocol/sdk';

/**
 * What one session sends its editor, in order: `session/update` notifications, queued as events arrive
 * (listeners are synchronous), and requests (permission, file system, terminals), which go out only after
 * every update queued before them, so that an editor never gets a permission request for a tool call it
 * has not been shown. A notification that cannot be sent (the editor has gone) is logged once, never thrown.
 */
export class SessionOutbox {
  readonly sessionId: string;
  readonly client: AgentContext;
  readonly #log: (message: string) => void;
  #queue: Promise<void> = Promise.resolve();
  #failed = false;

  constructor(sessionId: string, client: AgentContext, log: (message: string) => void) {
    this.sessionId = sessionId;
    this.client = client;
    this.#log = log;
  }

  /** Queues an update after those queued before it. */
  send(update: SessionUpdate): void {
    this.#queue = this.#queue.then(() =>
      this.client.notify('session/update', { sessionId: this.sessionId, update }).catch((error: unknown) => {
        // Once the editor has gone, every update fails the same way: it is said once.
        if (this.#failed) return;
        this.#failed = true;
        this.#log(`session ${this.sessionId}: updates are not sent any more: ${describe(error)}`);
      }),
    );
  }

  /** Resolves once every update queued so far has been handed to the connection. */
  flush(): Promise<void> {
    return this.#queue;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

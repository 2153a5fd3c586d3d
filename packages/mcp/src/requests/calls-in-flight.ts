import type { ToolContext } from '@agentloop/tools';

/**
 * The tool calls running on one connection, oldest first, so that a request the server makes during a
 * call (elicitation, sampling) reaches the ToolContext of that call.
 *
 * A server names the call its request belongs to only as a transport hint (the SDK's `relatedRequestId`
 * picks the HTTP response stream); over stdio nothing on the wire links the two. So the request goes to
 * the one call in progress, and when several run at once to the oldest: the calls of one connection are
 * made by one agent (one CLI or editor session), so any of them reaches the same user and model.
 */
export class CallsInFlight {
  readonly #calls = new Set<ToolContext>();

  /** Records a call until the returned function is called. */
  enter(context: ToolContext): () => void {
    this.#calls.add(context);
    return () => this.#calls.delete(context);
  }

  /** The oldest call in progress that offers `capability`, if any. */
  offering(capability: 'elicit' | 'sample'): ToolContext | undefined {
    for (const context of this.#calls) if (typeof context[capability] === 'function') return context;
    return undefined;
  }

  /** How many calls are in progress. */
  get size(): number {
    return this.#calls.size;
  }
}

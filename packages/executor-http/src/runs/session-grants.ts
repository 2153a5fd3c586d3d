/** How many sessions' grants are kept; the least recently used go first. */
const MAX_SESSIONS = 10_000;

/**
 * The tools a user allowed for the rest of a session (`allow-session`), kept across runs. An agent keeps
 * its grants as long as it lives, and the handler makes an agent per run, so without these a later run
 * of the same conversation would ask again. A grant limited to a command prefix is not carried over: the
 * check that a command holds no chained command is the agent's own, and a later run asks again.
 */
export class SessionGrants {
  readonly #tools = new Map<string, Set<string>>();

  /** Records an allow-session answer for a tool of the session. */
  grant(sessionId: string, toolName: string): void {
    const tools = this.#tools.get(sessionId) ?? new Set<string>();
    tools.add(toolName);
    // Re-inserted, so the map's order is the order of use and the oldest comes first.
    this.#tools.delete(sessionId);
    this.#tools.set(sessionId, tools);
    if (this.#tools.size > MAX_SESSIONS) {
      const oldest = this.#tools.keys().next().value;
      if (oldest !== undefined) this.#tools.delete(oldest);
    }
  }

  /** True when the user allowed the tool for the rest of the session. */
  allows(sessionId: string, toolName: string): boolean {
    return this.#tools.get(sessionId)?.has(toolName) ?? false;
  }
}

import type { Agent } from '@agentloop/core';
import type { ComposedAgent } from './compose-agent.js';

/** A session's composition, as `agentOf` uses it. */
export type SessionComposition = Pick<ComposedAgent, 'agent' | 'dispose'>;

/** Options of an AgentsBySession. */
export interface AgentsBySessionOptions {
  /** Builds a session's agent (its plugins and MCP servers start with it). */
  compose: (sessionId: string) => SessionComposition;
  /** Where notes go: a failed composition, an agent ended for being idle. */
  log: (message: string) => void;
  /**
   * How long a session's agent is kept after its last run, in ms: then it is disposed (its MCP servers
   * stop) and the session's next run builds it again. 0 keeps every agent until `dispose`. Default 0.
   */
  idleTimeoutMs?: number;
}

interface KeptAgent {
  readonly composed: SessionComposition;
  /** The agent, once built: the idle check asks it whether a run is going. */
  agent?: Agent;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * One composed agent per session, made on its first run and kept for its next ones: they resume it, and
 * its plugins and MCP servers start once. An agent with no run for `idleTimeoutMs` is disposed, so a
 * server that many sessions passed through does not keep every one's MCP server processes until it
 * stops. A composition that fails is logged (the browser is told only that the agent could not be
 * created) and tried again by the session's next run.
 */
export class AgentsBySession {
  readonly #compose: (sessionId: string) => SessionComposition;
  readonly #log: (message: string) => void;
  readonly #idleTimeoutMs: number;
  readonly #agents = new Map<string, KeptAgent>();
  /** Disposals of idle agents still under way: `dispose` waits for them too. */
  readonly #idleDisposals = new Set<Promise<void>>();

  constructor(options: AgentsBySessionOptions) {
    this.#compose = options.compose;
    this.#log = options.log;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 0;
  }

  /** How many sessions have an agent now. */
  get size(): number {
    return this.#agents.size;
  }

  async agentOf(sessionId: string): Promise<Agent> {
    let kept = this.#agents.get(sessionId);
    if (!kept) {
      kept = { composed: this.#compose(sessionId) };
      this.#agents.set(sessionId, kept);
    }
    // Taken for a run: not idle, whatever its timer said.
    this.#stopTimer(kept);
    let agent: Agent;
    try {
      agent = await kept.composed.agent;
    } catch (error) {
      if (this.#agents.get(sessionId) === kept) this.#agents.delete(sessionId);
      this.#log(
        `the agent of session ${sessionId} could not be built: ${error instanceof Error ? error.message : String(error)}`,
      );
      await kept.composed.dispose().catch(() => undefined);
      throw error;
    }
    if (!kept.agent && this.#idleTimeoutMs > 0) {
      kept.agent = agent;
      // The idle time counts from the end of the last run.
      agent.on('loop-end', () => this.#startTimer(sessionId, kept));
    }
    // Also from now: a run that fails before its loop starts ends with no loop-end.
    this.#startTimer(sessionId, kept);
    return agent;
  }

  /**
   * Ends every session's plugins and MCP servers, and waits for those of agents ended for being idle
   * that are still stopping: the caller closes the store and exits after this. A failure is logged,
   * and the others still end.
   */
  async dispose(log: (message: string) => void): Promise<void> {
    const all = [...this.#agents.values()];
    this.#agents.clear();
    for (const kept of all) this.#stopTimer(kept);
    await Promise.all([
      ...all.map((kept) =>
        kept.composed
          .dispose()
          .catch((error: unknown) => log(`a session's plugins did not end cleanly: ${String(error)}`)),
      ),
      // Each idle disposal logs its own outcome and never rejects.
      ...this.#idleDisposals,
    ]);
  }

  #startTimer(sessionId: string, kept: KeptAgent): void {
    if (this.#idleTimeoutMs === 0) return;
    this.#stopTimer(kept);
    kept.timer = setTimeout(() => this.#evictIfIdle(sessionId, kept), this.#idleTimeoutMs);
  }

  #stopTimer(kept: KeptAgent): void {
    if (kept.timer !== undefined) clearTimeout(kept.timer);
    kept.timer = undefined;
  }

  #evictIfIdle(sessionId: string, kept: KeptAgent): void {
    kept.timer = undefined;
    if (this.#agents.get(sessionId) !== kept) return;
    // A run that outlasts the idle time (or waits on an approval that long) is not idle.
    if (kept.agent?.running) {
      this.#startTimer(sessionId, kept);
      return;
    }
    this.#agents.delete(sessionId);
    const disposal = kept.composed
      .dispose()
      .then(
        () =>
          this.#log(
            `session ${sessionId} was idle for ${formatIdle(this.#idleTimeoutMs)}: its agent and MCP servers ended; its next run starts them again.`,
          ),
        (error: unknown) => this.#log(`session ${sessionId}'s plugins did not end cleanly: ${String(error)}`),
      )
      .finally(() => this.#idleDisposals.delete(disposal));
    this.#idleDisposals.add(disposal);
  }
}

function formatIdle(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  return `${ms / 1000} seconds`;
}

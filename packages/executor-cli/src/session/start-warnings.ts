import type { Agent } from '@agentloop/core';
import { mcpStartWarnings } from '../mcp/mcp-start-warnings.js';
import { skillStartWarnings } from '../skills/session-skills.js';

/**
 * The session's start-up warnings (MCP servers that failed to start, so their tools are missing; skills
 * that could not be loaded), said once as soon as the agent is ready: from the prompt shown while it was
 * being built (see interruptWhenReady) or before the first turn, whichever comes first.
 */
export class StartWarnings {
  readonly #warn: (line: string) => void;
  #shown = false;
  #pendingOf: Agent | undefined;

  /** `warn` writes one warning line where the user sees it. */
  constructor(warn: (line: string) => void) {
    this.#warn = warn;
  }

  /** Whether the warnings were said. */
  get shown(): boolean {
    return this.#shown;
  }

  /** The agent whose warnings interrupted the prompt, to be said before the prompt is drawn again. */
  get pendingOf(): Agent | undefined {
    return this.#pendingOf;
  }

  /** Says the agent's warnings, once. */
  show(agent: Agent): void {
    if (this.#shown) return;
    this.#shown = true;
    for (const line of warningsOf(agent)) this.#warn(line);
  }

  /**
   * Once the agent is ready, interrupts the prompt shown while it was being built when there is a start-up
   * warning to show: the warning goes above a prompt drawn again, with what the user had typed. Without
   * this the user would hear of a server that failed only after typing a task for it.
   */
  interruptWhenReady(agentReady: Promise<Agent>, interruptPrompt: () => void): void {
    agentReady.then(
      (agent) => {
        if (this.#shown || warningsOf(agent).length === 0) return;
        this.#pendingOf = agent;
        interruptPrompt();
      },
      () => undefined,
    );
  }
}

function warningsOf(agent: Agent): string[] {
  return [...mcpStartWarnings(agent.tools, '/mcp'), ...skillStartWarnings(agent)];
}

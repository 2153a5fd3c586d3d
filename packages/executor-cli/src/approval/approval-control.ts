import type { Agent, ApprovalMode } from '@agentloop/core';

/**
 * The approval mode of a session, as `/approval` shows and changes it. The CLI's is its ToolSafety, which
 * keeps the configured rules and the sandbox's fallback when the mode changes; an app that hands
 * CliExecutor an agent of its own gets one that sets the bare mode.
 */
export interface ApprovalControl {
  /** The mode in use; undefined when the session has not set one (the agent's own policy applies). */
  readonly mode: ApprovalMode | undefined;
  /** Sets the mode on the agent, from its next tool call. */
  setMode(agent: Agent, mode: ApprovalMode): void;
  /** How run_command's commands are confined, in a line for `/approval`; undefined when not known. */
  describeSandbox?(): string | undefined;
  /** A warning to show once, before the session's first turn (the sandbox cannot run); undefined for none. */
  notice?(): string | undefined;
}

/** An ApprovalControl that sets the bare mode: for agents the CLI did not compose. */
export function modeOnlyApprovalControl(): ApprovalControl {
  let mode: ApprovalMode | undefined;
  return {
    get mode() {
      return mode;
    },
    setMode(agent, next) {
      agent.setApproval(next);
      mode = next;
    },
  };
}

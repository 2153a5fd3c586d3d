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
  /** How run_command's commands are confined, for the approval screen; undefined when not known. */
  commandConfinement?(): CommandConfinement | undefined;
}

/** How a command of run_command will run, as the approval screen says it. */
export interface CommandConfinement {
  /** True when the command runs with the user's own rights: no sandbox. */
  unsandboxed: boolean;
  /** What that means, e.g. `without a sandbox (none can run here): with your rights, files and network`. */
  text: string;
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

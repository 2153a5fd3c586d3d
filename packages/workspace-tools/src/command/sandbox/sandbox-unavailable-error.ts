import { AgentloopError } from '@agentloop/tools';

/**
 * run_command was asked to sandbox a command where the sandbox cannot run: bubblewrap is missing, the
 * platform is not Linux, or the kernel refuses it the namespaces it needs. The command was not run: the
 * tools never fall back to running it unsandboxed. An executor that wants to run commands anyway checks
 * `sandboxStatus()` first and, with the user's consent, uses the `off` mode.
 */
export class SandboxUnavailableError extends AgentloopError<'sandbox_unavailable'> {
  /** Why the sandbox cannot run, in a sentence. */
  readonly reason: string;

  constructor(message: string, reason: string, cause?: unknown) {
    super(message, cause === undefined ? { code: 'sandbox_unavailable' } : { code: 'sandbox_unavailable', cause });
    this.reason = reason;
  }
}

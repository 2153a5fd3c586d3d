import type { Agent, ApprovalMode, ApprovalPolicyOptions, ApprovalRule, EnvironmentSnapshot } from '@agentloop/core';
import type { SandboxMode, SandboxOptions, SandboxStatus } from '@agentloop/workspace-tools';
import type { ToolSafetySettings } from '../config/index.js';
import type { ApprovalControl, CommandConfinement } from './approval-control.js';

/** What would let `agentloop run` run commands where the sandbox cannot run. */
const RUN_WITHOUT_SANDBOX =
  'To run them: install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap); or --sandbox off (or mode = "off" under [sandbox]), so that your allow rules decide, and the commands they allow run with your rights; or --approval yolo, which runs every command with your rights.';

/** Asks whether the sandbox can run: `sandboxStatus` of @agentloop/workspace-tools, or a test's stand-in. */
export type SandboxCheck = () => Promise<SandboxStatus>;

const defaultCheck: SandboxCheck = async () => (await import('@agentloop/workspace-tools')).sandboxStatus();

/**
 * A session's approvals and run_command's sandbox, decided together: the sandbox is checked once at
 * start-up, and where it cannot run, commands run without it (`off`) but never silently — every
 * run_command call is then asked about (refused in `read-only`), whatever the configured rules allow, and
 * `notice()` says so once. Only `yolo`, which the user chooses to never be asked, runs them as they come.
 * A sandbox configured `off` is the user's choice: the mode and rules alone decide.
 */
export class ToolSafety implements ApprovalControl {
  /** The approval mode in use. */
  mode: ApprovalMode;
  /** The configured rules, project's first. */
  readonly rules: readonly ApprovalRule[];
  /** The sandbox as configured. */
  readonly sandbox: Readonly<{ mode: SandboxMode; network: boolean; passEnvironment?: readonly string[] }>;
  #probe: Promise<SandboxStatus | undefined> | undefined;
  #status: SandboxStatus | undefined;

  constructor(settings: ToolSafetySettings) {
    this.mode = settings.approval.mode;
    this.rules = settings.approval.rules;
    this.sandbox = settings.sandbox;
  }

  /**
   * Checks once whether the sandbox can run (not at all when it is configured `off`); later calls get the
   * first one's answer. Never rejects.
   */
  probe(check: SandboxCheck = defaultCheck): Promise<SandboxStatus | undefined> {
    this.#probe ??=
      this.sandbox.mode === 'off'
        ? Promise.resolve(undefined)
        : check().then(
            (status) => (this.#status = status),
            (error: unknown) =>
              (this.#status = { available: false, reason: `the sandbox check failed (${String(error)})` }),
          );
    return this.#probe;
  }

  /** True when a sandbox was asked for and the check found it cannot run here. */
  get sandboxMissing(): boolean {
    return this.#status?.available === false;
  }

  /** run_command's sandbox: as configured, or `off` where it cannot run. */
  commandSandbox(): SandboxOptions {
    const { passEnvironment } = this.sandbox;
    return {
      mode: this.sandboxMissing ? 'off' : this.sandbox.mode,
      network: this.sandbox.network,
      ...(passEnvironment ? { passEnvironment } : {}),
    };
  }

  /** The options of the default approval policy for a mode, with the fallback for a missing sandbox first. */
  policy(mode: ApprovalMode = this.mode): ApprovalPolicyOptions {
    const fallback: ApprovalRule[] =
      this.sandboxMissing && mode !== 'yolo'
        ? [{ tool: 'run_command', action: mode === 'read-only' ? 'deny' : 'ask' }]
        : [];
    return { mode, rules: [...fallback, ...this.rules] };
  }

  /** What the model is told of its environment: the working directory, the approval mode and the sandbox. */
  environment(cwd: string, mode: ApprovalMode = this.mode): EnvironmentSnapshot {
    const sandbox = this.commandSandbox();
    return {
      cwd,
      approvalPolicy: mode,
      sandboxMode: sandbox.mode ?? 'workspace-write',
      networkAccess: sandbox.mode === 'off' || sandbox.network ? 'enabled' : 'restricted',
      ...(sandbox.mode === 'workspace-write' ? { writableRoots: [cwd] } : {}),
    };
  }

  setMode(agent: Agent, mode: ApprovalMode): void {
    agent.setApproval(this.policy(mode));
    this.mode = mode;
  }

  describeSandbox(): string | undefined {
    const { mode, network } = this.commandSandbox();
    if (this.sandboxMissing) {
      const then = this.mode === 'yolo' ? 'they run without asking (yolo)' : 'each one asks first';
      return `Commands run without a sandbox (it cannot run here), so ${then}.`;
    }
    if (mode === 'off') return 'Commands run without a sandbox (sandbox = off).';
    const net = network ? 'with' : 'without';
    return mode === 'read-only'
      ? `Commands run in a read-only sandbox, ${net} network.`
      : `Commands run in a sandbox: the workspace writable, the rest read-only, ${net} network.`;
  }

  /**
   * The warning to show once where the sandbox cannot run, in the words of where it shows: a `session`
   * asks the user about each command; `agentloop run` asks no one, so there every command is refused.
   */
  notice(where: 'session' | 'run' = 'session'): string | undefined {
    const status = this.#status;
    if (status?.available !== false) return undefined;
    if (this.mode === 'yolo') {
      return `No sandbox: ${status.reason}; run_command runs commands without it, and without asking (yolo).`;
    }
    if (this.mode === 'read-only') {
      return `No sandbox: ${status.reason}; run_command refuses every command, which would run without it (read-only).`;
    }
    if (where === 'session') {
      return `No sandbox: ${status.reason}; run_command asks before every command, whatever the rules allow, and it runs without the sandbox.`;
    }
    return `No sandbox: ${status.reason}; every command needs approval, whatever the rules allow, and agentloop run asks no one, so run_command refuses them all. ${RUN_WITHOUT_SANDBOX}`;
  }

  /**
   * Why `agentloop run` refused a call, where the missing sandbox is the reason (a run_command call that
   * the rules may well allow); undefined where the mode or a rule is.
   */
  refusalInRun(tool: string): string | undefined {
    if (tool !== 'run_command' || !this.sandboxMissing || this.mode === 'yolo' || this.mode === 'read-only') {
      return undefined;
    }
    return `⊘ run_command was refused: without a sandbox every command needs approval, whatever the rules allow, and agentloop run asks no one. ${RUN_WITHOUT_SANDBOX}`;
  }

  /** How run_command's commands will run, for the approval screen. */
  commandConfinement(): CommandConfinement {
    const { mode, network } = this.commandSandbox();
    if (mode === 'off') {
      const why = this.sandboxMissing ? 'none can run here' : 'sandbox = off';
      return { unsandboxed: true, text: `without a sandbox (${why}): with your rights, files and network` };
    }
    const net = network ? 'with network' : 'no network';
    return mode === 'read-only'
      ? { unsandboxed: false, text: `in a read-only sandbox, ${net}` }
      : { unsandboxed: false, text: `in the sandbox: only the working directory writable, ${net}` };
  }
}

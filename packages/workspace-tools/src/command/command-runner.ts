/** A process run_command hands to a CommandRunner: what to start, where, and what ends it. */
export interface CommandRunRequest {
  /** The program: the shell, or bubblewrap (with the shell after its `--`) when the sandbox is on. */
  file: string;
  args: readonly string[];
  /** The command line the model gave, e.g. for a terminal's title. */
  command: string;
  /** The working directory: absolute, inside the workspace, checked by the guard. */
  cwd: string;
  /** The whole environment of the command (only the variables it needs, see commandEnvironment). */
  env: Record<string, string>;
  /** End the process after this many milliseconds, with the ending `timeout`. */
  timeoutMs: number;
  /** The output run_command keeps (its start and end); a runner may keep at least this much. */
  maxOutputBytes: number;
  /** End the process when aborted, with the ending `cancelled`. */
  signal: AbortSignal;
  /** The tool call that runs it, so that an editor can show its terminal beside the call. */
  toolCallId: string;
}

/** How a process a CommandRunner ran ended. */
export interface CommandRunOutcome {
  /** It exited by itself, or the timeout or a cancel ended it. */
  ending: 'exited' | 'timeout' | 'cancelled';
  /** Its exit code; null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it, if one did. */
  exitSignal: string | null;
  /** stdout and stderr together, as the runner kept them (run_command caps them again). */
  output: string;
  durationMs: number;
}

/**
 * Runs run_command's processes somewhere else than a child of this process: in an editor's terminal (the
 * Agent Client Protocol's `terminal/*`), so that the user sees the command run. run_command still checks
 * the working directory and builds the sandbox: with the sandbox on, the runner is asked to run bubblewrap,
 * which confines the command wherever it is started. A runner must end the process (and what it started)
 * on timeout and cancel, and rejects only when it could not run the process at all.
 *
 * Unlike run_command's own runner, a runner has no status pipe from bubblewrap, so a sandbox that fails to
 * set up is recognised by bubblewrap's exit code 1 and its `bwrap:` message; and the program it runs the
 * process in may add its own environment to `env`.
 */
export type CommandRunner = (request: CommandRunRequest) => Promise<CommandRunOutcome>;

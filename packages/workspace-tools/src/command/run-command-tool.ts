import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { constants, homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import type { Tool } from '@agentloop/tools';
import { defineTool } from '@agentloop/tools';
import { WorkspaceToolError } from '../errors/index.js';
import type { WorkspaceGuardOptions } from '../guard/index.js';
import { WorkspaceGuard } from '../guard/index.js';
import { lazyZodParameters } from '../schema/lazy-zod-parameters.js';
import { CappedOutput } from './capped-output.js';
import { checkEnvironmentNames, commandEnvironment } from './command-environment.js';
import type { CommandRunner, CommandRunOutcome } from './command-runner.js';
import type { ProcessOutcome, ProcessRequest } from './run-process.js';
import { runProcess } from './run-process.js';
import type { SandboxMode, SandboxOptions } from './sandbox/index.js';
import { bwrapArguments, SandboxUnavailableError, sandboxStatus } from './sandbox/index.js';
import { MAX_SCANNED_FOLDERS } from './sandbox/protected-entries.js';
import type { ProtectionCheck, WorkspaceProtection } from './sandbox/workspace-protection.js';
import { checkProtection, protectWorkspace, releaseProtection } from './sandbox/workspace-protection.js';

/** How long a command may run unless the model asks for more. */
export const RUN_COMMAND_TIMEOUT_MS = 120_000;
/** The longest a model may ask a command to run. */
export const RUN_COMMAND_MAX_TIMEOUT_MS = 600_000;
/** The output a result keeps: its first and last halves. */
export const RUN_COMMAND_MAX_OUTPUT_BYTES = 32 * 1024;

/** How a `run_command` tool runs commands. */
export interface RunCommandToolOptions extends WorkspaceGuardOptions {
  /** The sandbox. Default: `workspace-write`, no network. */
  sandbox?: SandboxOptions;
  /** How long a command may run unless the model asks for more, in ms. Default: RUN_COMMAND_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The longest a model may ask for, in ms. Default: RUN_COMMAND_MAX_TIMEOUT_MS. */
  maxTimeoutMs?: number;
  /** The output kept, in bytes: its first and last halves. Default: RUN_COMMAND_MAX_OUTPUT_BYTES. */
  maxOutputBytes?: number;
  /**
   * The commands' environment, used as given. Default: the variables of this process's environment that
   * COMMAND_ENVIRONMENT or `sandbox.passEnvironment` names (see commandEnvironment).
   */
  environment?: Record<string, string | undefined>;
  /** The shell that runs the command line (`<shell> -c <command>`). Default: bash where installed, else sh. */
  shell?: string;
  /**
   * Runs the process elsewhere: an editor's terminal (see CommandRunner). The working directory is checked
   * and the sandbox built as without it. Default: a child process of this one, in its own process group.
   */
  runner?: CommandRunner | undefined;
}

const SANDBOX_MODES: readonly SandboxMode[] = ['workspace-write', 'read-only', 'off'];

/**
 * `run_command`: a shell command in the workspace (or a directory inside it), sandboxed by bubblewrap
 * unless the sandbox is `off`, ended with everything it started on timeout or cancel, its output capped
 * (head and tail kept) and its exit code reported. A failing command is a result, not an error: the
 * model reads the exit code. Where the sandbox cannot run, the command is not run and the error says so
 * (SandboxUnavailableError). Throws a TypeError at creation for an unknown mode, a relative writable path or
 * a name in `passEnvironment` that is not a variable's name.
 * Its annotations follow the sandbox: read-only in `read-only`, open-world only with the network or
 * without a sandbox.
 */
export function createRunCommandTool(options: RunCommandToolOptions = {}): Tool {
  const mode = options.sandbox?.mode ?? 'workspace-write';
  const network = options.sandbox?.network ?? false;
  const writablePaths = options.sandbox?.writablePaths ?? [];
  const defaultTimeoutMs = options.timeoutMs ?? RUN_COMMAND_TIMEOUT_MS;
  const maxTimeoutMs = Math.max(options.maxTimeoutMs ?? RUN_COMMAND_MAX_TIMEOUT_MS, defaultTimeoutMs);
  const maxOutputBytes = options.maxOutputBytes ?? RUN_COMMAND_MAX_OUTPUT_BYTES;
  if (!SANDBOX_MODES.includes(mode)) {
    throw new TypeError(`Unknown sandbox mode "${String(mode)}"; use one of ${SANDBOX_MODES.join(', ')}.`);
  }
  const passEnvironment = options.sandbox?.passEnvironment ?? [];
  checkEnvironmentNames(passEnvironment, 'The sandbox option passEnvironment');
  const relative = writablePaths.find((path) => !isAbsolute(path));
  if (relative !== undefined) {
    throw new TypeError(`The sandbox's writable path "${relative}" is not absolute; give an absolute path.`);
  }
  const tool = defineTool({
    name: 'run_command',
    description: `Run a shell command in the workspace and get its exit code and output (stdout and stderr together; long output keeps its start and end). ${describeSandbox(mode, network)} No input can be typed: a command that waits for input gets none. Times out after ${seconds(defaultTimeoutMs)} unless timeout_ms says otherwise; background processes end with the command.`,
    parameters: runCommandParameters(defaultTimeoutMs, maxTimeoutMs),
    annotations: {
      readOnly: mode === 'read-only',
      destructive: mode !== 'read-only',
      openWorld: mode === 'off' || network,
    },
    execute: async ({ command, directory, timeout_ms: timeoutMs = defaultTimeoutMs }, context) => {
      const guard = WorkspaceGuard.forCall(options, context);
      const root = guard.resolve('.').root;
      const cwd = guard.resolve(directory);
      const kind = await stat(cwd.real).catch(() => undefined);
      if (!kind?.isDirectory()) {
        throw new WorkspaceToolError(
          kind
            ? `"${directory}" is not a directory; give a directory as the working directory.`
            : `"${directory}" does not exist; give an existing directory of the workspace.`,
          kind ? 'wrong_kind' : 'not_found',
        );
      }
      const shell = options.shell ?? defaultShell();
      const base = {
        cwd: cwd.real,
        env: options.environment ? defined(options.environment) : commandEnvironment(process.env, passEnvironment),
        timeoutMs,
        maxOutputBytes,
        signal: context.signal,
      };
      let request: ProcessRequest;
      let protection: WorkspaceProtection | undefined;
      if (mode === 'off') {
        request = { ...base, file: shell, args: ['-c', command] };
      } else {
        const bwrap = options.sandbox?.bwrapPath ?? 'bwrap';
        const status = await sandboxStatus({ bwrapPath: bwrap });
        if (!status.available) throw unavailable(status.reason);
        if (mode === 'workspace-write') protection = protectWorkspace(root, writablePaths);
        const args = bwrapArguments({
          workspace: root,
          cwd: cwd.real,
          mode,
          network,
          writablePaths,
          ...(protection ? { protection } : {}),
          homeDirectory: options.sandbox?.homeDirectory ?? homedir(),
          // A runner elsewhere has no fourth pipe for bubblewrap's status.
          ...(options.runner ? {} : { statusFd: 3 }),
          command: [shell, '-c', command],
        });
        request = { ...base, file: bwrap, args, statusPipe: !options.runner };
      }
      let outcome: ProcessOutcome;
      let check: ProtectionCheck | undefined;
      try {
        outcome = options.runner
          ? await runElsewhere(options.runner, request, { command, toolCallId: context.toolCallId })
          : await runProcess(request);
      } finally {
        // Everything inside the sandbox has ended with it, so nothing can make a protected entry after
        // this check.
        if (protection) {
          check = checkProtection(protection);
          releaseProtection(protection);
        }
      }
      if (outcome.ending === 'cancelled') throw context.signal.reason;
      const exitCode =
        mode === 'off' ? outcome.exitCode : options.runner ? runnerSandboxExitCode(outcome) : sandboxExitCode(outcome);
      return describeOutcome(outcome, exitCode, timeoutMs, maxTimeoutMs) + describeCheck(check);
    },
  });
  // The call's own limit must outlast the command's longest timeout, which ends it with its output.
  return { ...tool, timeoutMs: maxTimeoutMs + 30_000 };
}

function describeSandbox(mode: SandboxMode, network: boolean): string {
  const net = network ? 'the network is available' : 'there is no network';
  if (mode === 'workspace-write') {
    return `It runs in a sandbox: the workspace is writable, the rest of the file system read-only, /tmp is empty and private, and ${net}. What programs outside the sandbox act on (.git, .agentloop, .vscode, .envrc, ...) stays read-only, and one the command makes is removed when it ends: no git init.`;
  }
  if (mode === 'read-only') {
    return `It runs in a read-only sandbox: nothing but a private /tmp can be written, and ${net}; use it to inspect, build into /tmp or test.`;
  }
  return "It runs with the user's own rights, without a sandbox.";
}

// What the model is told when the check after the command removed something, or could not check all.
function describeCheck(check: ProtectionCheck | undefined): string {
  if (!check) return '';
  let text = '';
  if (check.removed.length > 0) {
    text += `\n[The sandbox removed what the command made that programs outside it act on: ${check.removed.join(', ')}. Commands may not create or change git repositories (.git), agentloop's, editors' or agents' settings; if the task needs that, tell the user.]`;
  }
  if (!check.complete) {
    text += `\n[The workspace has more than ${MAX_SCANNED_FOLDERS} folders: entries the command made past them were not checked.]`;
  }
  return text;
}

// The command's exit code as bubblewrap reports it; no report means the sandbox never started.
function sandboxExitCode(outcome: ProcessOutcome): number | null {
  const reported = /"exit-code"\s*:\s*(\d+)/.exec(outcome.status);
  if (reported) return Number(reported[1]);
  if (outcome.ending === 'exited') {
    const said =
      outcome.stderrStart.trim().split('\n')[0] || `bwrap exited with ${outcome.exitCode ?? outcome.exitSignal}`;
    throw unavailable(`bubblewrap could not set up the sandbox: ${said}`);
  }
  return null;
}

// Through a runner there is no status pipe: bubblewrap's own failure is its exit code 1 with its message
// first (`bwrap: Can't mount proc ...`), which a command's output hardly begins with.
function runnerSandboxExitCode(outcome: ProcessOutcome): number | null {
  const first = outcome.output.text().trimStart().split('\n')[0] ?? '';
  if (outcome.ending === 'exited' && outcome.exitCode === 1 && first.startsWith('bwrap: ')) {
    throw unavailable(`bubblewrap could not set up the sandbox: ${first}`);
  }
  return outcome.exitCode;
}

// Runs the process through a runner; its outcome in the shape of runProcess's, its output capped as
// run_command's own.
async function runElsewhere(
  runner: CommandRunner,
  request: ProcessRequest,
  call: { command: string; toolCallId: string },
): Promise<ProcessOutcome> {
  const { file, args, cwd, env, timeoutMs, maxOutputBytes, signal } = request;
  const outcome: CommandRunOutcome = await runner({ file, args, cwd, env, timeoutMs, maxOutputBytes, signal, ...call });
  const output = new CappedOutput(maxOutputBytes);
  if (outcome.output !== '') output.push(Buffer.from(outcome.output, 'utf8'));
  return {
    ending: outcome.ending,
    exitCode: outcome.exitCode,
    exitSignal: outcome.exitSignal as NodeJS.Signals | null,
    output,
    stderrStart: '',
    status: '',
    durationMs: outcome.durationMs,
  };
}

function unavailable(reason: string): SandboxUnavailableError {
  return new SandboxUnavailableError(
    `The command was not run: run_command's sandbox is unavailable here (${reason}). Commands cannot run until the user fixes this or turns the sandbox off; tell the user, and do not retry.`,
    reason,
  );
}

function describeOutcome(
  outcome: ProcessOutcome,
  exitCode: number | null,
  timeoutMs: number,
  maxTimeoutMs: number,
): string {
  const output = outcome.output.totalBytes === 0 ? '(no output)' : outcome.output.text();
  if (outcome.ending === 'timeout') {
    const longer =
      timeoutMs < maxTimeoutMs ? ` If it needs longer, run it again with timeout_ms up to ${maxTimeoutMs}.` : '';
    return `Timed out after ${seconds(timeoutMs)}: the command and every process it started were ended.${longer} Output so far:\n${output}`;
  }
  const time = `(${seconds(outcome.durationMs)})`;
  if (exitCode === null) return `Ended by signal ${outcome.exitSignal ?? 'unknown'} ${time}.\n${output}`;
  const signal = exitCode > 128 ? signalName(exitCode - 128) : undefined;
  return `Exit code ${exitCode}${signal ? ` (ended by ${signal})` : ''} ${time}.\n${output}`;
}

function signalName(number: number): string | undefined {
  return Object.entries(constants.signals).find(([, value]) => value === number)?.[0];
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function defaultShell(): string {
  return existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

function defined(environment: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** run_command's parameters: the timeout's bounds and default are the tool's options. */
function runCommandParameters(defaultTimeoutMs: number, maxTimeoutMs: number) {
  const commandText = 'The command line, e.g. "npm test -- --run src/app.test.ts".';
  const directoryText = 'The working directory, relative to the workspace. Default: the workspace.';
  const timeoutText = `How long the command may run, in ms. Default: ${defaultTimeoutMs}.`;
  return lazyZodParameters(
    {
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1, description: commandText },
        directory: { default: '.', description: directoryText, type: 'string' },
        timeout_ms: { description: timeoutText, type: 'integer', minimum: 1000, maximum: maxTimeoutMs },
      },
      required: ['command'],
    },
    (z) =>
      z.object({
        command: z.string().min(1).describe(commandText),
        directory: z.string().default('.').describe(directoryText),
        timeout_ms: z.number().int().min(1000).max(maxTimeoutMs).optional().describe(timeoutText),
      }),
  );
}

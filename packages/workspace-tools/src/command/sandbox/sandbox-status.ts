import { type ExecFileException, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bwrapArguments } from './bwrap-arguments.js';

/** Whether run_command's sandbox can run here, and if not, why. */
export type SandboxStatus =
  | {
      available: true;
      /** The sandbox used: bubblewrap. */
      kind: 'bubblewrap';
      /** `bwrap --version`'s answer, e.g. `bubblewrap 0.8.0`. */
      version: string;
    }
  | {
      available: false;
      /** Why, in a sentence a user can act on. */
      reason: string;
    };

const probes = new Map<string, Promise<SandboxStatus>>();

/**
 * Whether bubblewrap can sandbox a command on this machine: it is Linux, `bwrap` is installed, and a
 * sandbox like run_command's (new user, PID and network namespaces) starts and runs `true`. A container
 * may forbid the namespaces even where bwrap is installed, so this tries rather than looks. The answer is
 * kept per `bwrapPath` for the life of the process; `refresh` asks again. Never rejects.
 */
export function sandboxStatus(options: { bwrapPath?: string; refresh?: boolean } = {}): Promise<SandboxStatus> {
  const bwrap = options.bwrapPath ?? 'bwrap';
  let probe = probes.get(bwrap);
  if (probe === undefined || options.refresh) {
    probe = probeSandbox(bwrap);
    probes.set(bwrap, probe);
  }
  return probe;
}

async function probeSandbox(bwrap: string): Promise<SandboxStatus> {
  if (process.platform !== 'linux') {
    return {
      available: false,
      reason: `the sandbox uses bubblewrap, which runs on Linux only, and this is ${process.platform}`,
    };
  }
  // The two spawns run at once: every session that gives the agent run_command waits for this answer
  // before its first request, so it waits for the slower of the two, not for both in turn.
  const workspace = await mkdtemp(join(tmpdir(), 'agentloop-sandbox-probe-'));
  try {
    const args = bwrapArguments({
      workspace,
      cwd: workspace,
      mode: 'workspace-write',
      network: false,
      writablePaths: [],
      homeDirectory: homedir(),
      command: ['true'],
    });
    const [version, started] = await Promise.all([run(bwrap, ['--version']), run(bwrap, args)]);
    if (version.error?.code === 'ENOENT') {
      return {
        available: false,
        reason: `bubblewrap (${bwrap}) is not installed; install it (Debian and Ubuntu: apt-get install bubblewrap)`,
      };
    }
    if (version.error) return { available: false, reason: `${bwrap} --version failed: ${version.error.message}` };
    if (started.error) {
      const said = started.stderr.trim() || started.error.message;
      return { available: false, reason: `bubblewrap cannot create its sandbox here (${said.split('\n')[0]})` };
    }
    return { available: true, kind: 'bubblewrap', version: version.stdout.trim() };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

function run(file: string, args: string[]): Promise<{ stdout: string; stderr: string; error?: ExecFileException }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      resolve(error ? { stdout, stderr, error } : { stdout, stderr });
    });
  });
}

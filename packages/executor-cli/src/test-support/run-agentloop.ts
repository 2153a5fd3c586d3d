import { spawn } from 'node:child_process';
import type { CliWorkspace } from './cli-fixture.js';
import { AGENTLOOP_BIN } from './cli-fixture.js';

/** How a run of the built command ended: its status and what it wrote to stdout and stderr, apart. */
export interface AgentloopRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `agentloop` command to its end in the workspace's project (or in `cwd`), with the
 * workspace's environment (plus `environment`), stdin closed, stdout and stderr captured apart.
 */
export function runAgentloop(
  workspace: CliWorkspace,
  args: readonly string[],
  environment: Record<string, string> = {},
  cwd: string = workspace.project,
): Promise<AgentloopRun> {
  const child = spawn(process.execPath, [AGENTLOOP_BIN, ...args], {
    cwd,
    env: workspace.environment(environment),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

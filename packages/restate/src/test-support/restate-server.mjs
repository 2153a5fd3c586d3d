// Plain JavaScript (types in restate-server.d.mts), so that the tests and bench/durable.bench.mjs share it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemToolAvailable } from '../../../../scripts/system-tools.mjs';
import { freePort } from './free-port.mjs';

const require = createRequire(import.meta.url);
/**
 * The restate-server binary of `@restatedev/restate-server`'s platform package, run directly rather than
 * through the package's Node wrapper, so that a SIGKILL reaches the server itself.
 */
export function restateServerBinary() {
  try {
    const binary = require.resolve(`@restatedev/restate-server-${platform()}-${arch()}/bin/restate-server`);
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}
/** True when the tests can start a real Restate server here; otherwise says once why they skip. */
export function restateServerAvailable() {
  return systemToolAvailable(
    'restate-server',
    restateServerBinary() === undefined
      ? `@restatedev/restate-server has no binary for ${platform()}-${arch()} here; run \`npm install\` (with SCARF_ANALYTICS=false)`
      : undefined,
  );
}
/**
 * Starts `restate-server` on free 127.0.0.1 ports with a new data directory, quiet and local (no
 * telemetry, no update check, TCP only), and resolves once its admin API and ingress answer. Invocations
 * are retried after 50 ms, growing to 1 s at most, so that a test that kills a worker does not wait long
 * for the run to go on elsewhere.
 */
export async function startRestateServer() {
  const binary = restateServerBinary();
  if (!binary) throw new Error('restate-server is not installed: run `npm install` (with SCARF_ANALYTICS=false).');
  const baseDir = mkdtempSync(join(tmpdir(), 'agentloop-restate-'));
  const [ingress, admin, node] = await Promise.all([freePort(), freePort(), freePort()]);
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  const adminUrl = `http://127.0.0.1:${admin}`;
  const environment = {
    PATH: process.env.PATH,
    HOME: baseDir,
    SCARF_ANALYTICS: 'false',
    DO_NOT_TRACK: '1',
    RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
    RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
    RESTATE_BIND_ADDRESS: `127.0.0.1:${node}`,
    RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${node}`,
    RESTATE_LISTEN_MODE: 'tcp',
    RESTATE_DISABLE_TELEMETRY: 'true',
    RESTATE_LOG_FILTER: 'warn,octocrab=off',
    RESTATE_DEFAULT_NUM_PARTITIONS: '4',
    RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: '256MB',
    RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: '50ms',
    RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: '1s',
    RESTATE_DEFAULT_RETRY_POLICY__MAX_ATTEMPTS: '200',
  };
  let output = '';
  let child;
  let exited = Promise.resolve();
  const launch = async () => {
    const started = spawn(binary, ['--no-logo', '--base-dir', baseDir], {
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    started.stdout?.on('data', (chunk) => (output += chunk));
    started.stderr?.on('data', (chunk) => (output += chunk));
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    await waitUntilHealthy(started, `${adminUrl}/health`, `${ingressUrl}/restate/health`, () => output);
  };
  const kill = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  await launch();
  return {
    ingressUrl,
    adminUrl,
    baseDir,
    output: () => output,
    register: async (uri) => {
      const response = await fetch(`${adminUrl}/deployments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uri, force: true }),
      });
      if (!response.ok) {
        throw new Error(`registering ${uri} failed: ${response.status} ${await response.text()}`);
      }
    },
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    stop: async () => {
      await kill();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}
/**
 * Asks the admin API and the ingress for their health until both answer, or the server exits. A
 * connection refused means "not listening yet"; there is no event to wait for instead.
 */
async function waitUntilHealthy(child, adminHealth, ingressHealth, output) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`restate-server exited while starting:\n${output()}`);
    }
    if ((await answers(adminHealth)) && (await answers(ingressHealth))) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`restate-server did not become healthy in 30 s:\n${output()}`);
}
async function answers(url) {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

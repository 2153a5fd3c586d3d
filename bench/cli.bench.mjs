// Benchmark of the `agentloop` command (built): time from starting it to its prompt, and of
// `agentloop run` for a one-step task against a local scripted OpenAI-compatible server.
//
//   cd /work/main && npx turbo run build && node bench/cli.bench.mjs [--runs 15]
//
// The prompt only appears on a terminal, so the interactive command runs under a pseudo-terminal made by
// `script` (util-linux); the time is taken when the prompt character reaches its output. A baseline row
// shows what starting `node` alone under `script` costs on this machine.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedOpenAIServer } from '../packages/executor-cli/src/test-support/scripted-openai-server.mjs';

const BIN = fileURLToPath(new URL('../packages/executor-cli/bin/agentloop.js', import.meta.url));
const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 15;
const WARMUP = 2;

if (spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error('`script` (util-linux) is needed to give the command a terminal; install util-linux.');
  process.exit(1);
}

const home = mkdtempSync(join(tmpdir(), 'agentloop-bench-'));
const environment = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: home,
  LANG: 'C.UTF-8',
  TERM: 'xterm-256color',
};
const shellQuote = (value) => `'${String(value).replaceAll("'", `'\\''`)}'`;

/** Milliseconds from spawning `command` under a terminal until `marker` appears in its output; then it is stopped. */
function timeUntilOutput(command, marker) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: environment,
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: true,
    });
    let output = '';
    const timer = setTimeout(() => {
      process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`no ${JSON.stringify(marker)} within 10 s; output:\n${output}`));
    }, 10_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (!output.includes(marker)) return;
      const elapsed = performance.now() - started;
      clearTimeout(timer);
      process.kill(-child.pid, 'SIGKILL');
      resolve(elapsed);
    });
  });
}

/** Milliseconds from spawning `agentloop` with these arguments until it exits; fails on a non-zero status. */
function timeUntilExit(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      env: environment,
      cwd: home,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) =>
      status === 0 ? resolve(performance.now() - started) : reject(new Error(`exit ${status}: ${stderr}`)),
    );
  });
}

async function measure(label, once) {
  for (let index = 0; index < WARMUP; index++) await once();
  const times = [];
  for (let index = 0; index < RUNS; index++) times.push(await once());
  times.sort((a, b) => a - b);
  return { label, min: times[0], median: times[Math.floor(times.length / 2)], max: times.at(-1) };
}

const server = await startScriptedOpenAIServer();
const connection = ['--base-url', server.url, '--model', 'test-model'];
const oneStep = { toolCalls: [{ name: 'task_completion', arguments: { result: 'Done.' } }] };
try {
  const rows = [
    await measure('`node -e` under `script` (baseline)', () =>
      timeUntilOutput(`${shellQuote(process.execPath)} -e 'process.stdout.write("ready")'`, 'ready'),
    ),
    await measure('`agentloop` to its prompt', () =>
      timeUntilOutput(
        `cd ${shellQuote(home)} && ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${connection.map(shellQuote).join(' ')}`,
        '›',
      ),
    ),
    await measure('`agentloop run` one-step task', () => {
      server.push(oneStep);
      return timeUntilExit(['run', ...connection, 'finish at once']);
    }),
  ];
  const format = (ms) => `${ms.toFixed(0)}`;
  console.log(
    `\n${RUNS} runs each after ${WARMUP} warm-up runs · Node ${process.version} · ${process.platform}-${process.arch}\n`,
  );
  console.log('| measurement | min (ms) | median (ms) | max (ms) |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const row of rows)
    console.log(`| ${row.label} | ${format(row.min)} | ${format(row.median)} | ${format(row.max)} |`);
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
}

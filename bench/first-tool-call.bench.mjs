// Benchmark of the first workspace-tool call in `agentloop run` (built) against later ones. The workspace
// tools load their libraries on first use (zod and the argument schemas, picomatch, ignore, re2js, diff),
// so that a run that never calls one never pays for them; the CLI starts loading them when the first run
// starts, while its first model request is in flight. The aim: the first call costs at most ~50 ms more
// than a later one.
//
//   npm run build && node bench/first-tool-call.bench.mjs [--runs 9] [--compare <bin>]   # in the repository's root
//
// Each round runs `agentloop run --json --approval yolo` in a fresh workspace against the local scripted
// OpenAI-compatible server (packages/executor-cli/src/test-support/scripted-openai-server.mjs), whose
// model calls read_file three times, then list_files, then ends with task_completion. The figures are the
// tool-result events' `durationMs` (what the tool line shows): the first read_file, and the median of
// the later two. Under two model latencies:
//   model answers at once — the server streams its first answer at once: there is no request in flight
//            to hide the loading behind, so this is the worst case;
//   model takes 400 ms    — the first answer comes after 400 ms, a fast real model's time to first token.
// `--compare <bin>`: another build of the command (one made from an earlier commit, see cli.bench.mjs for
// how) measured in the same rounds, interleaved, so that a change is compared under the same load.
//
// Figures: Node 20.20, linux-x64, 2 CPUs shared with other work (load average about 9 while measured, so
// compare the rows, not the times), 7 rounds; ms median (min–max). The compared build is the CLI of the
// commit before the preload, which loaded the libraries on the first call:
//
//   build           model latency           first call       later calls    first − later
//   this build      model answers at once   299 (188–514)    6 (4–10)       293 (179–508)
//   this build      model takes 400 ms       29 (11–101)     1 (1–18)        18 (10–100)
//   compared build  model answers at once   298 (125–451)    5 (1–51)       292 (123–435)
//   compared build  model takes 400 ms      112 (86–311)     2 (1–10)       109 (84–301)
//
// With a model that takes any time to answer, the first call now costs about what later ones do. A model
// that answers at once leaves nothing to hide the loading behind: the first call then waits for zod as
// before (its load, and what else the start-up is still doing, on a loaded CPU).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  replyChunks,
  startScriptedOpenAIServer,
} from '../packages/executor-cli/src/test-support/scripted-openai-server.mjs';

const BIN = fileURLToPath(new URL('../packages/executor-cli/bin/agentloop.js', import.meta.url));
const runsFlag = process.argv.indexOf('--runs');
const ROUNDS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 9;
const compareFlag = process.argv.indexOf('--compare');
const COMPARE = compareFlag > 0 ? resolvePath(process.argv[compareFlag + 1]) : undefined;
const WARMUP = 1;
const LATENCIES = [
  { label: 'model answers at once', firstDelayMs: 0 },
  { label: 'model takes 400 ms', firstDelayMs: 400 },
];

/** One `agentloop run`: the durations of its workspace-tool calls, in order. */
async function run(bin, firstDelayMs) {
  const read = { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] };
  const server = await startScriptedOpenAIServer([
    // The server waits before each chunk: spread over the answer's chunks, the whole answer takes the latency.
    { ...read, delayMs: firstDelayMs / replyChunks(read).length },
    read,
    read,
    { toolCalls: [{ name: 'list_files', arguments: {} }] },
    { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
  ]);
  const workspace = mkdtempSync(join(tmpdir(), 'agentloop-first-call-'));
  writeFileSync(join(workspace, 'notes.txt'), 'Remember the milk.\n');
  try {
    const child = spawn(
      process.execPath,
      [bin, 'run', '--json', '--base-url', server.url, '--model', 'test-model', '--approval', 'yolo', 'go'],
      {
        cwd: workspace,
        env: { PATH: process.env.PATH, HOME: workspace, XDG_CONFIG_HOME: workspace, LANG: 'C.UTF-8' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const status = await new Promise((resolve) => child.on('close', resolve));
    if (status !== 0) throw new Error(`agentloop run exited with ${status}:\n${stderr}`);
    return stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
      .filter((event) => event.type === 'tool-result' && event.name !== 'task_completion')
      .map((event) => event.durationMs);
  } finally {
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

const builds = [['this build', BIN], ...(COMPARE ? [['compared build', COMPARE]] : [])];
/** build label → latency label → { first: number[], later: number[] } */
const results = new Map(
  builds.map(([label]) => [label, new Map(LATENCIES.map(({ label }) => [label, { first: [], later: [] }]))]),
);

for (let round = 0; round < WARMUP + ROUNDS; round++) {
  // The order rotates from round to round, so that no build always runs after the same one.
  const cases = builds.flatMap((build) => LATENCIES.map((latency) => [build, latency]));
  const rotated = [...cases.slice(round % cases.length), ...cases.slice(0, round % cases.length)];
  for (const [[label, bin], latency] of rotated) {
    const durations = await run(bin, latency.firstDelayMs);
    if (round < WARMUP) continue;
    const figures = results.get(label).get(latency.label);
    figures.first.push(durations[0]);
    figures.later.push(median(durations.slice(1, 3)));
  }
}

function sorted(values) {
  return [...values].sort((a, b) => a - b);
}
function median(values) {
  const ordered = sorted(values);
  const middle = Math.floor(ordered.length / 2);
  return ordered.length % 2 === 1 ? ordered[middle] : (ordered[middle - 1] + ordered[middle]) / 2;
}
function spread(values) {
  const ordered = sorted(values);
  return `${median(values).toFixed(0)} (${ordered[0].toFixed(0)}–${ordered.at(-1).toFixed(0)})`;
}

console.log(
  `${ROUNDS} interleaved rounds after ${WARMUP} warm-up round · Node ${process.version} · ${process.platform}-${process.arch}`,
);
console.log('');
console.log(
  `${'build'.padEnd(16)}${'model latency'.padEnd(24)}${'first call'.padEnd(20)}${'later calls'.padEnd(18)}first − later`,
);
for (const [label] of builds) {
  for (const latency of LATENCIES) {
    const { first, later } = results.get(label).get(latency.label);
    const extra = first.map((value, index) => value - later[index]);
    console.log(
      `${label.padEnd(16)}${latency.label.padEnd(24)}${spread(first).padEnd(20)}${spread(later).padEnd(18)}${spread(extra)}`,
    );
  }
}

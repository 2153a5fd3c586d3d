// The loop's own cost: one tool call per iteration against a provider that replays prebuilt chunks at
// once (no network, no recording), so what is measured is DefaultAgent — request assembly, history
// check, context count, event emission, argument validation, tool execution bookkeeping and memory appends.
//
//   1. CPU µs per iteration at history lengths 10, 100, 300, 1,000 and 3,000 iterations (one run each, the
//      history growing by two messages an iteration), with a provider that reports usage and with one that
//      reports none (the agent then estimates every request's tokens). "end" is the marginal cost: the CPU of the run's
//      last iterations (the second half, at most the last 500), so what grows with the history shows
//      there; "run" is the whole run's CPU over its iterations (agent construction and run start included).
//      Medians over the repetitions of all rounds, with the spread (min–max of the per-round medians).
//   2. Heap after GC for 1,000 agents run at once, at three history lengths (memory should grow with
//      history only).
//
// Each measurement runs in its own child process pinned to one CPU (taskset, on Linux with 2+ CPUs; PIN=0
// turns it off), after a warm-up of WARMUP runs of 100 iterations (the JIT goes on compiling for the first
// ~100 runs; a short warm-up measures the compiler, not the loop). `--compare <dir>`: also measures the
// agentloop checkout in <dir> (its packages built), in the same rounds, alternating which goes first, and
// prints both side by side with their ratio. To compare with an older commit:
//   mkdir -p /tmp/base/node_modules && git archive <commit> | tar -x -C /tmp/base &&
//   cp -a node_modules/@agentloop /tmp/base/node_modules/ &&
//   for e in node_modules/* node_modules/.bin; do [ "${e#node_modules/}" = @agentloop ] ||
//     ln -s "$PWD/$e" /tmp/base/node_modules/; done &&
//   ln -s "$PWD/packages/core/node_modules" /tmp/base/packages/core/ &&
//   for p in spec provider-utils tools memory prompts core; do (cd /tmp/base/packages/$p && npx tsc -p tsconfig.build.json); done
//   node --expose-gc bench/loop.bench.mjs --compare /tmp/base
// A dependency the old commit has and this checkout no longer does goes into /tmp/base/node_modules by hand
// (for af236a6: eventemitter3@5.0.4, installed elsewhere with npm and linked there).
// Knobs: ROUNDS (5), NO_USAGE_ROUNDS (3; 0 skips that table), WARMUP (150), LENGTHS (10,100,300,1000,3000),
// HEAP=0 skips part 2, PIN.
//
// Measured 2026-11-25 on the 2-core shared dev machine (noisy: others were running benchmarks), in one run
// (`--compare`), before = commit af236a6, after = the request history read incrementally (99d8c28) and the
// count without usage (6ee26f1). CPU µs per iteration, "end" (the run's last iterations), median of the
// rounds' medians (min–max):
//
//   iterations | reports usage, before | after            | no usage reported, before | after
//   10         | 15.0 (14.8–16.0)      | 14.2 (14.0–19.6) | 19.4 (19.0–20.8)          | 15.2 (14.8–15.4)
//   100        | 13.6 (12.4–14.6)      | 12.5 (12.0–17.8) | 52.7 (50.3–55.2)          | 14.0 (13.9–17.4)
//   300        | 16.0 (14.8–17.7)      | 14.7 (12.9–19.7) | 143 (130–148)             | 15.7 (14.0–16.8)
//   1,000      | 31.7 (29.2–34.6)      | 21.6 (21.1–27.7) | 359 (353–378)             | 23.1 (20.8–23.9)
//   3,000      | 60.0 (55.5–75.6)      | 24.8 (20.9–31.6) | 1,202 (1,175–1,260)       | 25.5 (24.9–26.5)
//
// Before, every request filtered the whole memory (and, without reported usage, estimated every message
// twice). What is left of the growth, about 10 µs from ~600 iterations on and then flat, is the copy that
// gives each request an array of its own (a provider may keep it, or change it): about 1 ns a message, plus
// the young-generation collections its 8 bytes a message bring on. Handing out the run's own array instead
// measured flat at 13 µs to 3,000 iterations, but a provider that keeps a request would see it grow
// afterwards. Heap per agent: 9.8 KB at 5 iterations, 12.6 KB at 10, 17.8 KB at 20 (as before).

import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** Rounds of the same measure with a provider that reports no usage (0 skips it). */
const NO_USAGE_ROUNDS = Number(process.env.NO_USAGE_ROUNDS ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 150);
const LENGTHS = (process.env.LENGTHS ?? '10,100,300,1000,3000').split(',').map(Number);
/** Repetitions of each length in one child: about 6,000 iterations, at least 3 runs. */
const repetitions = (length) => Math.max(3, Math.round(6000 / length));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const here = fileURLToPath(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A provider that answers `toolSteps` echo calls, then task_completion; `reportsUsage: false` is a server
 * that reports no token usage (the agent then estimates the whole request).
 */
function replayProvider(toolSteps, reportsUsage) {
  let step = 0;
  const usage = reportsUsage ? { inputTokens: 100, outputTokens: 10 } : { inputTokens: 0, outputTokens: 0 };
  const call = (name, input) => [
    { type: 'text-delta', text: 'Calling the tool.' },
    { type: 'tool-call', toolCallId: `c${step}`, toolName: name, input },
    { type: 'usage', usage },
    { type: 'finish', reason: 'tool-calls' },
  ];
  return {
    specificationVersion: 'v1',
    id: 'replay',
    capabilities: {
      modelId: 'replay',
      nativeTools: true,
      parallelToolCalls: true,
      stopSequences: true,
      reasoning: false,
      contextWindow: 1e6,
    },
    async *stream() {
      step++;
      const chunks =
        step <= toolSteps ? call('echo', '{"text":"hello"}') : call('task_completion', '{"result":"done"}');
      for (const chunk of chunks) yield chunk;
    },
  };
}

/** Loads DefaultAgent and an echo tool from the checkout at `checkout`. */
async function loadAgent(checkout, reportsUsage = true) {
  const core = await import(pathToFileURL(resolve(checkout, 'packages/core/dist/index.js')).href);
  // zod from the checkout, as its core resolves it.
  const { createRequire } = await import('node:module');
  const require = createRequire(resolve(checkout, 'packages/core/package.json'));
  const { z } = await import(pathToFileURL(require.resolve('zod')).href);
  const echo = core.defineTool({
    name: 'echo',
    description: 'Echo',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => text,
  });
  /**
   * Runs one agent for `iterations` iterations (iterations - 1 echo calls, then task_completion) and
   * returns the CPU µs of the whole run and of its last `window` iterations (from the start of iteration
   * iterations - window + 1 to the run's end).
   */
  return async function runAgent(iterations, window = 0) {
    const started = process.cpuUsage();
    // One iteration to spare: the run's last allowed call would be the wrap-up, which ends with max_iterations.
    const agent = new core.DefaultAgent(replayProvider(iterations - 1, reportsUsage), {
      maxIterations: iterations + 1,
      tools: [echo],
    });
    agent.on('message-content', () => {});
    agent.on('tool-result', () => {});
    const from = iterations - window + 1;
    let windowStart;
    if (window > 0) {
      agent.on('loop-iteration', (event) => {
        if (event.iteration === from) windowStart = process.cpuUsage();
      });
    }
    const result = await agent.run('go');
    const ended = process.cpuUsage();
    if (result.exit !== 'task_completion') throw new Error(`unexpected exit ${result.exit}: ${result.error?.message}`);
    if (result.iterations !== iterations) throw new Error(`ran ${result.iterations} iterations, not ${iterations}`);
    const cpu = (a, b) => b.user + b.system - (a.user + a.system);
    return { agent, run: cpu(started, ended), end: windowStart ? cpu(windowStart, ended) : undefined };
  };
}

/** In a child: warms up, then measures each length; prints JSON { [length]: { run: [], end: [] } }. */
async function child(checkout, reportsUsage) {
  const runAgent = await loadAgent(checkout, reportsUsage);
  for (let i = 0; i < WARMUP; i++) await runAgent(100);
  const out = {};
  for (const length of LENGTHS) {
    const window = Math.min(500, Math.ceil(length / 2));
    const run = [];
    const end = [];
    for (let i = 0; i < repetitions(length); i++) {
      const measured = await runAgent(length, window);
      run.push(measured.run / length);
      end.push(measured.end / window);
    }
    out[length] = { run, end };
  }
  console.log(JSON.stringify(out));
}

async function heapPerAgent(runAgent, agents, iterations) {
  global.gc();
  const base = process.memoryUsage().heapUsed;
  const kept = await Promise.all(Array.from({ length: agents }, () => runAgent(iterations)));
  global.gc();
  const used = process.memoryUsage().heapUsed - base;
  if (kept.length !== agents) throw new Error('lost agents');
  return { perAgentKB: used / agents / 1024, messages: kept[0].agent.memory.messages().length };
}

async function parent() {
  const compareAt = process.argv.indexOf('--compare');
  const checkouts =
    compareAt > 0
      ? [
          ['before', resolve(process.argv[compareAt + 1])],
          ['after', root],
        ]
      : [['µs', root]];
  const pin =
    process.env.PIN !== '0' &&
    process.platform === 'linux' &&
    existsSync('/usr/bin/taskset') &&
    availableParallelism() >= 2;
  if (pin) execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  const measure = async (checkout, mode) => {
    const args = [here, '--child', checkout, mode];
    const [command, commandArgs] = pin ? ['taskset', ['-c', '1', process.execPath, ...args]] : [process.execPath, args];
    const { stdout } = await promisify(execFile)(command, commandArgs, { maxBuffer: 1 << 20 });
    return JSON.parse(stdout.trim().split('\n').at(-1));
  };
  const names = checkouts.map(([name]) => name);
  const columns = [
    ...names.flatMap((name) => [`${name}: end`, `${name}: run`]),
    ...(names.length === 2 ? ['after/before, end'] : []),
  ];
  const cell = (values) =>
    `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;

  for (const [mode, rounds, title] of [
    ['usage', ROUNDS, 'the provider reports usage'],
    ['no-usage', NO_USAGE_ROUNDS, 'the provider reports no usage (every request is estimated)'],
  ]) {
    if (rounds === 0) continue;
    // results[name][length] = { run: [per-round medians], end: [...] }
    const results = Object.fromEntries(names.map((name) => [name, {}]));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
      for (const [name, checkout] of order) {
        const measured = await measure(checkout, mode);
        for (const length of LENGTHS) {
          results[name][length] ??= { run: [], end: [] };
          results[name][length].run.push(median(measured[length].run));
          results[name][length].end.push(median(measured[length].end));
        }
      }
    }
    console.log(
      `\nCPU µs per iteration, ${title}: ${rounds} rounds, median (min–max of the rounds' medians); aim ≤ 50\n`,
    );
    console.log(`| iterations | ${columns.join(' | ')} |`);
    console.log(`| ---: | ${columns.map(() => '---:').join(' | ')} |`);
    for (const length of LENGTHS) {
      const cells = names.flatMap((name) => [cell(results[name][length].end), cell(results[name][length].run)]);
      if (names.length === 2) {
        cells.push((median(results.after[length].end) / median(results.before[length].end)).toFixed(2));
      }
      console.log(`| ${length.toLocaleString('en')} | ${cells.join(' | ')} |`);
    }
  }
  if (process.env.HEAP === '0') return;
  const runAgent = await loadAgent(root);
  for (let i = 0; i < 20; i++) await runAgent(100);
  console.log('\n| heap after GC per agent, 1,000 agents at once | value | aim |');
  console.log('| --- | ---: | --- |');
  for (const iterations of [5, 10, 20]) {
    const { perAgentKB, messages } = await heapPerAgent(runAgent, 1000, iterations);
    console.log(
      `| ${iterations} iterations (${messages} messages each) | ${perAgentKB.toFixed(1)} KB | grows with history only |`,
    );
  }
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4] !== 'no-usage');
else await parent();

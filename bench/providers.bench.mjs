// Providers benchmark: the same 20-step tool loop (a local server scripts one `add` call per step, then
// task_completion: 21 model calls a loop) written several ways, each in its own child process:
//   bare          — a hand-written loop over the vendor's SDK, sending the agent's system prompt and tools;
//   raw           — (add it to KINDS) the same loop over raw fetch, no SDK: the floor under every kind;
//   agent         — DefaultAgent with the agentloop provider (native tools, built dist files);
//   vercel        — the Vercel AI SDK's own tool loop (generateText / streamText with stopWhen);
//   openai-agents — OpenAI Agents' runner (Chat Completions, OpenAI path only);
//   provider      — (diagnostic, add it to KINDS) the hand-written loop over the agentloop provider without
//                   DefaultAgent, which splits the agent's extra cost into the provider's share and the loop's.
// Every path (Anthropic / OpenAI Chat, streamed / not) is measured one loop at a time and with 200 loops
// at once (Promise.all in one process, against the same server). Per child it reports CPU µs per model
// call (a step) of the client process only, wall ms per step, and the heap after GC before any loop,
// halfway through a batch of loops (all in flight) and after it with the loops' results held; from the last
// and the first, the heap each loop leaves held once it ended (the agent kind keeps its agent, idle, as an
// app keeps a session waiting for its user; the bare loop keeps its messages).
//
// Pairing: the kinds run in rounds, every kind once per round, the order rotated each round, so that
// drift in the machine's load hits all alike; each ratio is computed per round (kind / bare of the same
// round), and the table gives the median with the spread (min–max) of those per-round ratios. The server
// runs in this process, so its cost is in no column; on Linux with two or more CPUs the server and the
// children are pinned to different CPUs (taskset), which keeps the server's work and the children's from
// disturbing each other's counts (PIN=0 turns it off). Before measuring, one loop of each kind runs
// against a recording server: the agent's first request gives the system prompt and tools every other
// kind sends, the hand-written loops (bare, raw, provider) must then send the agent's requests exactly
// (any difference is printed), and the request bytes of each kind are printed.
//
// Steady state: V8 goes on compiling (on a background thread, which process.cpuUsage counts) for the first
// ~100 runs of this loop, and more code compiles for longer, so a short warm-up charges the agent for its
// JIT rather than for its work (measured: 1.20× the bare SDK's instructions per step after 5 warm-up runs,
// 0.87–1.0× after 150, with callgrind). Hence 150 warm-up loops (3,150 model calls) before measuring; with
// 200 loops at once the warm-up is one batch of 200.
//
// Reproduce:
//   npx turbo run build                 # the packages' dist
//   npm --prefix bench/peers ci         # the peers, pinned in bench/peers/package.json (benchmark only)
//   node --expose-gc bench/providers.bench.mjs        (or: npm run bench -- providers)
// Knobs (environment): ROUNDS (5), RUNS (50 loops one at a time), BATCHES (1 batch of loops at once), WARMUP (150
// loops), STEPS (20), CONCURRENCY (1,200), VENDORS (anthropic,openai), STREAMING (true,false),
// KINDS (bare,agent + the peers when installed), PIN (1), CPU_PROF (a folder: the measuring children write
// CPU profiles there, for `node --cpu-prof`'s viewers).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startScriptedServer } from './providers/scripted-server.mjs';

const execute = promisify(execFile);
const list = (name, fallback) => (process.env[name] ?? fallback).split(',').filter((item) => item !== '');
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const RUNS = Number(process.env.RUNS ?? 50);
const BATCHES = Number(process.env.BATCHES ?? 1);
const WARMUP = Number(process.env.WARMUP ?? 150);
const STEPS = Number(process.env.STEPS ?? 20);
const CONCURRENCY = list('CONCURRENCY', '1,200').map(Number);
const VENDORS = list('VENDORS', 'anthropic,openai');
const STREAMING = list('STREAMING', 'true,false').map((flag) => flag === 'true');
const file = (path) => fileURLToPath(new URL(path, import.meta.url));

const PEERS = ['vercel', 'openai-agents'];
const PEERS_INSTALL = 'npm --prefix bench/peers ci';
const peersInstalled = ['ai', '@ai-sdk/anthropic', '@ai-sdk/openai', '@openai/agents'].every((name) =>
  existsSync(file(`./peers/node_modules/${name}/package.json`)),
);
const KINDS = list('KINDS', ['bare', 'agent', ...(peersInstalled ? PEERS : [])].join(','));
if (!peersInstalled) {
  const message = `The peer frameworks (Vercel AI SDK, OpenAI Agents) are not installed: run \`${PEERS_INSTALL}\` (pinned in bench/peers/package.json, used by the benchmarks only).`;
  if (KINDS.some((kind) => PEERS.includes(kind))) {
    console.error(message);
    process.exit(1);
  }
  console.log(`${message} Measuring without them.`);
}
const CHILD = {
  bare: './providers/bare-loop.mjs',
  raw: './providers/raw-loop.mjs',
  agent: './providers/agent-loop.mjs',
  provider: './providers/provider-loop.mjs',
  vercel: './peers/vercel-loop.mjs',
  'openai-agents': './peers/openai-agents-loop.mjs',
};
const LABEL = {
  bare: 'bare SDK',
  raw: 'raw fetch',
  agent: 'agentloop',
  provider: 'provider only',
  vercel: 'Vercel AI SDK',
  'openai-agents': 'OpenAI Agents',
};
for (const kind of KINDS)
  if (!CHILD[kind]) throw new Error(`Unknown kind "${kind}" in KINDS; known: ${Object.keys(CHILD).join(', ')}.`);
const SAME_REQUESTS = ['bare', 'raw', 'provider'];
const kindsFor = (vendor) => KINDS.filter((kind) => kind !== 'openai-agents' || vendor === 'openai');

const PIN =
  process.env.PIN !== '0' &&
  process.platform === 'linux' &&
  existsSync('/usr/bin/taskset') &&
  availableParallelism() >= 2;
if (PIN) execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });

const server = await startScriptedServer({ toolSteps: STEPS });

/** The system prompt and tools in the agent's first request: the bare loop and the peers send the same. */
function templateOf(vendor, body) {
  return vendor === 'anthropic'
    ? { system: body.system, tools: body.tools }
    : { system: body.messages[0].content, tools: body.tools };
}

const CPU_PROF = process.env.CPU_PROF;
let profiles = 0;

/** Runs one child and returns what it measured (see providers/measure.mjs). */
async function runChild(kind, vendor, streaming, template, { url, runs, warmup, concurrency }) {
  const args = [
    '--expose-gc',
    // CPU_PROF=<folder>: each measuring child writes a V8 CPU profile there, named after its kind and path.
    ...(CPU_PROF && runs > 1
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${CPU_PROF}`,
          `--cpu-prof-name=${kind}-${vendor}-${streaming ? 'stream' : 'nostream'}-x${concurrency}-${++profiles}.cpuprofile`,
        ]
      : []),
    file(CHILD[kind]),
    vendor,
    String(streaming),
    url,
    String(runs),
    String(warmup),
    String(STEPS),
    JSON.stringify(template),
    String(concurrency),
  ];
  const [command, commandArgs] = PIN ? ['taskset', ['-c', '1', process.execPath, ...args]] : [process.execPath, args];
  const { stdout } = await execute(command, commandArgs, { cwd: file('..'), maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

/** Paths (up to `limit`) where two JSON values differ. */
function differences(a, b, path = '', found = [], limit = 5) {
  if (found.length >= limit) return found;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      differences(a[key], b[key], `${path}.${key}`, found);
  } else if (a !== b)
    found.push(`${path || '.'}: ${JSON.stringify(a)?.slice(0, 60)} ≠ ${JSON.stringify(b)?.slice(0, 60)}`);
  return found;
}

/**
 * One loop of each kind against a recording server. The agent goes first: its first request gives the
 * template (system prompt and tools) the others send, taken from the same dist the agent's children run.
 * Returns the template, the requests' bytes, and where the bare loop's requests differ from the agent's.
 */
async function checkRequests(vendor) {
  const recorder = await startScriptedServer({ toolSteps: STEPS, record: true });
  const rows = [];
  let template = {};
  try {
    for (const streaming of STREAMING) {
      const sent = {};
      for (const kind of ['agent', ...kindsFor(vendor).filter((other) => other !== 'agent')]) {
        recorder.bodies.length = 0;
        recorder.bodyBytes.length = 0;
        await runChild(kind, vendor, streaming, template, { url: recorder.url, runs: 1, warmup: 0, concurrency: 1 });
        // The child runs one measured loop, then one more for the heap: the first loop's calls.
        sent[kind] = { bodies: recorder.bodies.slice(0, STEPS + 1), bytes: recorder.bodyBytes.slice(0, STEPS + 1) };
        if (kind === 'agent') template = templateOf(vendor, sent.agent.bodies[0]);
      }
      for (const kind of kindsFor(vendor).filter((other) => sent[other]))
        rows.push({
          vendor,
          streaming,
          kind,
          total: sent[kind].bytes.reduce((sum, bytes) => sum + bytes, 0),
          first: sent[kind].bytes[0],
          calls: sent[kind].bodies.length,
          // The hand-written loops must send exactly the agent's requests; the peers send their own.
          mismatch: SAME_REQUESTS.includes(kind) ? differences(sent.agent.bodies, sent[kind].bodies) : undefined,
        });
    }
  } finally {
    await recorder.close();
  }
  return { template, rows };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** Median and spread of per-round ratios of `kind` to bare for one measured field. */
function ratio(samples, kind, field) {
  if (!samples[kind]?.length || !samples.bare?.length) return undefined;
  const ratios = samples[kind].map((sample, round) => sample[field] / samples.bare[round][field]);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

const requestRows = [];
const rows = [];
for (const vendor of VENDORS) {
  const { template, rows: sent } = await checkRequests(vendor);
  requestRows.push(...sent);
  for (const streaming of STREAMING) {
    for (const concurrency of CONCURRENCY) {
      const kinds = kindsFor(vendor);
      const samples = Object.fromEntries(kinds.map((kind) => [kind, []]));
      const runs = concurrency === 1 ? RUNS : concurrency * BATCHES;
      for (let round = 0; round < ROUNDS; round++) {
        // Rotate which goes first, so drift in the machine's load hits all alike.
        const order = kinds.map((_, index) => kinds[(index + round) % kinds.length]);
        for (const kind of order)
          samples[kind].push(
            await runChild(kind, vendor, streaming, template, { url: server.url, runs, warmup: WARMUP, concurrency }),
          );
      }
      rows.push({ vendor, streaming, concurrency, kinds, samples });
      process.stderr.write(`measured ${vendor} ${streaming ? 'stream' : 'no stream'} ×${concurrency}\n`);
    }
  }
}
const { stats } = server;
await server.close();

const fixed = (value, digits = 0) => (value === undefined ? '–' : value.toFixed(digits));
const spread = (r, bold = false) =>
  r === undefined
    ? '–'
    : `${bold ? '**' : ''}${fixed(r.median, 2)}×${bold ? '**' : ''} (${fixed(r.min, 2)}–${fixed(r.max, 2)})`;
const mode = (streaming) => (streaming ? 'stream' : 'no stream');
const medianOf = (samples, kind, field) =>
  samples[kind]?.length ? median(samples[kind].map((sample) => sample[field])) : undefined;
const others = KINDS.filter((kind) => kind !== 'bare' && kind !== 'agent');

console.log(
  `\nProviders benchmark: ${STEPS} tool steps + 1 final call per loop (a step = one model call); one at a time ${RUNS} loops per process, at once ${BATCHES} batch(es) per process; ${WARMUP} warm-up loops first; ${ROUNDS} rounds, kinds interleaved; Node ${process.version}${PIN ? '; server and clients pinned to separate CPUs' : ''}. Ratios: median of per-round ratios to the bare SDK loop (min–max over the rounds).\n`,
);
console.log('CPU of the client process per step (aim: agentloop / bare ≤ 1.05× on every path, at 1 and 200 at once)\n');
console.log(
  `| vendor | mode | loops at once | bare SDK µs/step | agentloop µs/step | **agentloop / bare** |${others.map((kind) => ` ${LABEL[kind]} / bare |`).join('')} agentloop / bare in warm-up | bare / agentloop wall ms/step |`,
);
console.log(`| --- | --- | ---: | ---: | ---: | ---: |${others.map(() => ' ---: |').join('')} ---: | ---: |`);
for (const { vendor, streaming, concurrency, samples } of rows)
  console.log(
    `| ${vendor} | ${mode(streaming)} | ${concurrency} | ${fixed(medianOf(samples, 'bare', 'cpuUsPerStep'))} | ${fixed(medianOf(samples, 'agent', 'cpuUsPerStep'))} | ${spread(ratio(samples, 'agent', 'cpuUsPerStep'), true)} |${others.map((kind) => ` ${spread(ratio(samples, kind, 'cpuUsPerStep'))} |`).join('')} ${spread(ratio(samples, 'agent', 'warmupCpuUsPerStep'))} | ${fixed(medianOf(samples, 'bare', 'wallMsPerStep'), 2)} / ${fixed(medianOf(samples, 'agent', 'wallMsPerStep'), 2)} |`,
  );

const atOnce = rows.filter((row) => row.concurrency > 1);
if (atOnce.length > 0) {
  console.log(
    '\nHeap after GC, MB, with the loops at once: before any loop / halfway (all in flight) / after, results held (aim: agentloop / bare ≤ 1.2×)\n',
  );
  console.log(
    `| vendor | mode | loops at once | bare SDK | agentloop | **agentloop / bare, in flight** | agentloop / bare, held |${others.map((kind) => ` ${LABEL[kind]} | ${LABEL[kind]} / bare, in flight |`).join('')}`,
  );
  console.log(`| --- | --- | ---: | ---: | ---: | ---: | ---: |${others.map(() => ' ---: | ---: |').join('')}`);
  const heap = (samples, kind) =>
    samples[kind]?.length
      ? ['heapBaseMB', 'heapInFlightMB', 'heapHeldMB']
          .map((field) => fixed(medianOf(samples, kind, field), 1))
          .join(' / ')
      : '–';
  for (const { vendor, streaming, concurrency, samples } of atOnce)
    console.log(
      `| ${vendor} | ${mode(streaming)} | ${concurrency} | ${heap(samples, 'bare')} | ${heap(samples, 'agent')} | ${spread(ratio(samples, 'agent', 'heapInFlightMB'), true)} | ${spread(ratio(samples, 'agent', 'heapHeldMB'))} |${others.map((kind) => ` ${heap(samples, kind)} | ${spread(ratio(samples, kind, 'heapInFlightMB'))} |`).join('')}`,
    );

  // What each loop leaves behind once it ended and sits idle (the agent kind holds its agent, the bare loop
  // its messages): the heap after the batch with the results held, less the heap before any loop, per loop.
  const heldPerLoopKB = (sample, concurrency) => ((sample.heapHeldMB - sample.heapBaseMB) * 1024) / concurrency;
  console.log(
    '\nHeap held per idle loop after its run, KB: (heap after, results held − heap before any loop) / loops at once (aim: agentloop − bare ≤ 12 KB)\n',
  );
  console.log(
    `| vendor | mode | loops at once | bare SDK | agentloop | **agentloop − bare** |${others.map((kind) => ` ${LABEL[kind]} − bare |`).join('')}`,
  );
  console.log(`| --- | --- | ---: | ---: | ---: | ---: |${others.map(() => ' ---: |').join('')}`);
  for (const { vendor, streaming, concurrency, samples } of atOnce) {
    const perLoop = (kind) =>
      samples[kind]?.length ? median(samples[kind].map((sample) => heldPerLoopKB(sample, concurrency))) : undefined;
    const overBare = (kind) => {
      if (!samples[kind]?.length || !samples.bare?.length) return '–';
      const differences = samples[kind].map(
        (sample, round) => heldPerLoopKB(sample, concurrency) - heldPerLoopKB(samples.bare[round], concurrency),
      );
      return `${fixed(median(differences), 1)} (${fixed(Math.min(...differences), 1)}–${fixed(Math.max(...differences), 1)})`;
    };
    console.log(
      `| ${vendor} | ${mode(streaming)} | ${concurrency} | ${fixed(perLoop('bare'), 1)} | ${fixed(perLoop('agent'), 1)} | **${overBare('agent')}** |${others.map((kind) => ` ${overBare(kind)} |`).join('')}`,
    );
  }
}

console.log(`\nRequests of one loop (${STEPS + 1} calls), bytes of the JSON bodies\n`);
console.log('| vendor | mode | kind | calls | all requests | first request | same requests as agentloop |');
console.log('| --- | --- | --- | ---: | ---: | ---: | --- |');
for (const row of requestRows)
  console.log(
    `| ${row.vendor} | ${mode(row.streaming)} | ${LABEL[row.kind]} | ${row.calls} | ${row.total} | ${row.first} | ${row.mismatch === undefined ? '' : row.mismatch.length === 0 ? 'yes' : `**no**: ${row.mismatch.join('; ')}`} |`,
  );
console.log(`\nServer: ${stats.requests} requests over ${stats.connections} connections.`);

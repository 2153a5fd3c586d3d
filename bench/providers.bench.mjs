// Providers benchmark: the same 20-step tool loop (a local server scripts one tool call per step, then
// task_completion) run several ways, each in its own child process, interleaved round by round:
//   bare     — a hand-written loop over the vendor's SDK (sending the agent's system prompt and tools);
//   agent    — DefaultAgent with the agentloop provider (native tools, built dist files);
//   provider — (diagnostic, KINDS=bare,agent,provider) the hand-written loop over the agentloop provider,
//              without DefaultAgent, which splits the agent's extra cost into the provider's share and the loop's.
// Reports CPU µs and wall ms per model call (21 per run) and peak RSS, the medians over the rounds, and
// the CPU ratios to bare. The server runs in this process, so its cost is in no column; on Linux with
// two or more CPUs the server and the children are pinned to different CPUs (taskset), which keeps the
// server's work and the children's from disturbing each other's counts (PIN=0 turns it off).
//
// Steady state: V8 goes on compiling (on a background thread, which process.cpuUsage counts) for the first
// ~100 runs of this loop, and more code compiles for longer, so a short warm-up charges the agent for its
// JIT rather than for its work (measured: 1.20× the bare SDK's instructions per step after 5 warm-up runs,
// 0.87–1.0× after 150, with callgrind). Hence 150 warm-up runs (3,150 model calls) before measuring.
// Build first: `npx turbo run build`. Knobs: ROUNDS, RUNS, WARMUP, STEPS, VENDORS (anthropic,openai), KINDS, PIN.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DefaultAgent } from '@agentloop/core';
import { addTool } from './providers/add-tool.mjs';
import { createBenchProvider } from './providers/create-bench-provider.mjs';
import { startScriptedServer } from './providers/scripted-server.mjs';

const run = promisify(execFile);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const RUNS = Number(process.env.RUNS ?? 50);
const WARMUP = Number(process.env.WARMUP ?? 150);
const STEPS = Number(process.env.STEPS ?? 20);
const VENDORS = (process.env.VENDORS ?? 'anthropic,openai').split(',');
const child = (name) => fileURLToPath(new URL(`./providers/${name}`, import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const KINDS = (process.env.KINDS ?? 'bare,agent').split(',');
const PIN =
  process.env.PIN !== '0' &&
  process.platform === 'linux' &&
  existsSync('/usr/bin/taskset') &&
  availableParallelism() >= 2;
if (PIN) execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });

const server = await startScriptedServer({ toolSteps: STEPS });

/** The system prompt and tools the agent sends, so that the bare loop sends the same request. */
async function requestTemplate(vendor) {
  const agent = new DefaultAgent(await createBenchProvider(vendor, server.url, true), {
    maxIterations: STEPS + 1,
    toolProtocol: 'native',
    tools: [addTool],
  });
  const result = await agent.run('probe');
  if (result.exit !== 'task_completion')
    throw new Error(`probe run ended with ${result.exit}: ${result.error?.message}`);
  const body = server.firstBodies[vendor];
  return vendor === 'anthropic'
    ? { system: body.system, tools: body.tools }
    : { system: body.messages[0].content, tools: body.tools };
}

async function measureChild(kind, vendor, streaming, template) {
  const args = [
    child(`${kind}-loop.mjs`),
    vendor,
    String(streaming),
    server.url,
    String(RUNS),
    String(WARMUP),
    String(STEPS),
    JSON.stringify(template),
  ];
  const [command, commandArgs] = PIN ? ['taskset', ['-c', '1', process.execPath, ...args]] : [process.execPath, args];
  const { stdout } = await run(command, commandArgs, {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

const rows = [];
for (const vendor of VENDORS) {
  const template = await requestTemplate(vendor);
  for (const streaming of [true, false]) {
    const samples = { bare: [], agent: [], provider: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate which goes first, so drift in the machine's load hits all alike.
      const order = KINDS.map((_, index) => KINDS[(index + round) % KINDS.length]);
      for (const kind of order) samples[kind].push(await measureChild(kind, vendor, streaming, template));
    }
    const summary = (kind) =>
      samples[kind].length === 0
        ? undefined
        : {
            cpu: median(samples[kind].map((sample) => sample.cpuUsPerStep)),
            warmupCpu: median(samples[kind].map((sample) => sample.warmupCpuUsPerStep)),
            wall: median(samples[kind].map((sample) => sample.wallMsPerStep)),
            rss: median(samples[kind].map((sample) => sample.peakRssMB)),
          };
    rows.push({ vendor, streaming, bare: summary('bare'), agent: summary('agent'), provider: summary('provider') });
  }
}
await server.close();

const format = (value, digits = 0) => value.toFixed(digits);
console.log(
  `\nProviders benchmark: ${STEPS} tool steps + 1 final call per run (a step = one model call), ${RUNS} runs per process after ${WARMUP} warm-up runs, median of ${ROUNDS} rounds; Node ${process.version}${PIN ? ', server and clients pinned to separate CPUs' : ''}.\n`,
);
const withProvider = KINDS.includes('provider');
console.log(
  `| vendor | mode | bare SDK CPU µs/step | DefaultAgent CPU µs/step | **agent / bare CPU** |${withProvider ? ' provider-only CPU µs/step (ratio) |' : ''} agent / bare CPU in warm-up (JIT) | bare wall ms/step | agent wall ms/step | bare peak RSS MB | agent peak RSS MB |`,
);
console.log(`| --- | --- | ---: | ---: | ---: |${withProvider ? ' ---: |' : ''} ---: | ---: | ---: | ---: | ---: |`);
for (const { vendor, streaming, bare, agent, provider } of rows) {
  const providerColumn = withProvider ? ` ${format(provider.cpu)} (${format(provider.cpu / bare.cpu, 2)}×) |` : '';
  console.log(
    `| ${vendor} | ${streaming ? 'stream' : 'no stream'} | ${format(bare.cpu)} | ${format(agent.cpu)} | **${format(agent.cpu / bare.cpu, 2)}×** |${providerColumn} ${format(agent.warmupCpu / bare.warmupCpu, 2)}× | ${format(bare.wall, 2)} | ${format(agent.wall, 2)} | ${format(bare.rss)} | ${format(agent.rss)} |`,
  );
}

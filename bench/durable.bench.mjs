// What a durable run costs over an in-process one, and how many sessions one Restate server carries:
//   cost per step: a run of 6 model calls and 5 tool calls (11 journal steps), on an instant model and a
//     tool that does nothing, in process (a DefaultAgent per run, as a worker makes one) and through a real
//     restate-server with one worker (each step a `ctx.run` round trip), sequentially and 200 at once;
//   sessions per second: 200 sessions at once, each one such run, through one server with 1 and 2 workers
//     behind one address (as behind a load balancer).
// The server is @restatedev/restate-server's binary, on 127.0.0.1, with its data in os.tmpdir(); the
// figures include its disk writes. This machine's cores are shared by the server, the workers and this
// process: read the figures as relative.
import { fileURLToPath } from 'node:url';
import { DefaultAgent } from '../packages/core/dist/index.js';
import { restateServerBinary, startRestateServer } from '../packages/restate/src/test-support/restate-server.mjs';
import { WorkerPool } from '../packages/restate/src/test-support/worker-pool.mjs';
import { InstantModel, noop, TOOL_CALLS } from './durable/instant-agent.mjs';

const MODEL_CALLS = TOOL_CALLS + 1;
const STEPS = MODEL_CALLS + TOOL_CALLS;
const SEQUENTIAL = 50;
const CONCURRENT = 200;
const WORKER = fileURLToPath(new URL('./durable/worker.mjs', import.meta.url));

if (!restateServerBinary()) {
  console.log('restate-server is not installed here (npm install with SCARF_ANALYTICS=false): nothing to measure.');
  process.exit(0);
}

async function inProcessRun(sessionId) {
  const agent = new DefaultAgent(new InstantModel(), { sessionId, tools: [noop] });
  const result = await agent.run('Do the five steps.');
  if (result.exit !== 'task_completion') throw new Error(`in-process run ended with ${result.exit}`);
}

function durableRun(server, sessionId) {
  return fetch(`${server.ingressUrl}/bench/${sessionId}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify('Do the five steps.'),
  }).then(async (response) => {
    const result = await response.json();
    if (result.exit !== 'task_completion') throw new Error(`durable run: ${response.status} ${JSON.stringify(result)}`);
  });
}

/** Milliseconds for `count` runs one after the other. */
async function sequential(count, run) {
  const started = performance.now();
  for (let index = 0; index < count; index++) await run(index);
  return performance.now() - started;
}

/** Milliseconds for `count` runs at once. */
async function concurrent(count, run) {
  const started = performance.now();
  await Promise.all(Array.from({ length: count }, (_, index) => run(index)));
  return performance.now() - started;
}

const format = (value, digits = 2) => value.toFixed(digits);
let round = 0;

// Warm up the loop's code paths before measuring.
await sequential(20, (index) => inProcessRun(`warm-${index}`));
const inProcessSequential = (await sequential(SEQUENTIAL, (index) => inProcessRun(`seq-${index}`))) / SEQUENTIAL;
const inProcessConcurrent = await concurrent(CONCURRENT, (index) => inProcessRun(`con-${index}`));

const server = await startRestateServer();
const pool = await WorkerPool.start();
try {
  await pool.startWorker(WORKER, 'w1');
  await server.register(pool.uri);
  await sequential(20, (index) => durableRun(server, `warm-${index}`));
  const durableSequential =
    (await sequential(SEQUENTIAL, (index) => durableRun(server, `seq-${++round}-${index}`))) / SEQUENTIAL;
  const durableConcurrent1 = await concurrent(CONCURRENT, (index) => durableRun(server, `one-${++round}-${index}`));
  await pool.startWorker(WORKER, 'w2');
  await sequential(20, (index) => durableRun(server, `warm2-${index}`));
  const durableConcurrent2 = await concurrent(CONCURRENT, (index) => durableRun(server, `two-${++round}-${index}`));

  console.log(`A run: ${MODEL_CALLS} model calls and ${TOOL_CALLS} tool calls (${STEPS} journal steps).\n`);
  console.log('| | in process | durable (1 worker) | added per journal step |');
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| one run at a time, ms per run | ${format(inProcessSequential)} | ${format(durableSequential)} | ${format((durableSequential - inProcessSequential) / STEPS)} ms |`,
  );
  const perRunConcurrent = (total) => total / CONCURRENT;
  console.log(
    `| ${CONCURRENT} at once, ms per run (wall / ${CONCURRENT}) | ${format(perRunConcurrent(inProcessConcurrent))} | ${format(perRunConcurrent(durableConcurrent1))} | ${format((perRunConcurrent(durableConcurrent1) - perRunConcurrent(inProcessConcurrent)) / STEPS)} ms |`,
  );
  console.log('\nSessions per second through one Restate server, 200 sessions at once, one run each:\n');
  console.log('| workers | wall time | sessions/s |');
  console.log('| --- | --- | --- |');
  for (const [workers, wall] of [
    [1, durableConcurrent1],
    [2, durableConcurrent2],
  ]) {
    console.log(`| ${workers} | ${format(wall / 1000)} s | ${format((CONCURRENT / wall) * 1000, 0)} |`);
  }
} finally {
  await pool.close();
  await server.stop();
}

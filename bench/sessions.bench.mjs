// The session stores' costs, for the JSON lines and SQLite stores on the local disk (os.tmpdir()), and the
// PostgreSQL store on a private server the bench starts in a temporary folder (scripts/postgres-server.mjs;
// fsync off, like the tests' servers, so its commits wait for no disk: compare it with the file stores'
// own fsync knowing that), or on the database AGENTLOOP_BENCH_POSTGRES_URL names (its sessions are
// deleted after). Where no PostgreSQL is installed, it is left out and the bench says so:
//   appending a turn (five messages, then the commit with its fsync or transaction), median and p99, in a
//     new session and in one that already holds 10,000 messages;
//   resuming a session of 10,000 messages: the store's `load`, and an agent's `openSession()` (the store's
//     `open`, then the memory's restore, which checks and copies the history), time and the heap it keeps.
// A turn's messages are what an agent writes: the input, a tool call, a 1 kB tool result, an exit call and
// its result.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultAgent } from '../packages/core/dist/index.js';
import { JsonlSessionStore, PostgresSessionStore, SqliteSessionStore } from '../packages/sessions/dist/index.js';
import { startPostgresServer } from '../scripts/postgres-server.mjs';

const server = process.env.AGENTLOOP_BENCH_POSTGRES_URL ? undefined : await startPostgresServer();
const POSTGRES_URL =
  process.env.AGENTLOOP_BENCH_POSTGRES_URL ?? (server && 'reason' in server ? undefined : server?.connectionString);
const STORES = {
  jsonl: (folder) => new JsonlSessionStore({ directory: join(folder, 'sessions') }),
  sqlite: (folder) => new SqliteSessionStore({ file: join(folder, 'sessions.sqlite') }),
  ...(POSTGRES_URL ? { postgres: () => new PostgresSessionStore({ connectionString: POSTGRES_URL }) } : {}),
};
if (!POSTGRES_URL) {
  console.log(
    `The PostgreSQL store is left out: ${server?.reason}, or set AGENTLOOP_BENCH_POSTGRES_URL to a database.`,
  );
}
// The bench's sessions, made anew on each run (a database outlives it).
const SESSION_IDS = ['bench-small', 'bench-large', 'bench-resume'];
const TURNS_MEASURED = 300;
const LARGE = 10_000;
const usage = { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
const result = 'line of a file that the tool read and sent back to the model\n'.repeat(16).slice(0, 1024);

function turnMessages(turn) {
  return [
    { role: 'user', content: [{ type: 'text', text: `Step ${turn}: read the next file and fix what fails.` }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading it.' },
        {
          type: 'tool-call',
          toolCallId: `r${turn}`,
          toolName: 'read_file',
          arguments: { path: `src/file-${turn}.ts` },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: `r${turn}`, toolName: 'read_file', content: result, isError: false },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: `e${turn}`,
          toolName: 'task_completion',
          arguments: { result: `Fixed ${turn}.` },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `e${turn}`,
          toolName: 'task_completion',
          content: 'Task complete.',
          isError: false,
        },
      ],
    },
  ];
}

async function writeTurn(store, id, turn) {
  for (const message of turnMessages(turn)) await store.append(id, message);
  await store.commit(id, { usage, exit: 'task_completion' });
}

const ms = (ns) => Number(ns) / 1e6;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function appendFigures(store, id, firstTurn) {
  const times = [];
  for (let turn = firstTurn; turn < firstTurn + TURNS_MEASURED; turn++) {
    const start = process.hrtime.bigint();
    await writeTurn(store, id, turn);
    times.push(ms(process.hrtime.bigint() - start));
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p99: percentile(times, 99) };
}

function heapMb() {
  global.gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** A provider for an agent that only resumes: it is never called. */
const idleProvider = {
  specificationVersion: 'v1',
  id: 'idle',
  capabilities: {
    modelId: 'idle',
    nativeTools: true,
    parallelToolCalls: true,
    stopSequences: true,
    reasoning: false,
    contextWindow: 1e6,
  },
  stream() {
    throw new Error('not called');
  },
};

async function timed(repeats, action) {
  const times = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    const start = process.hrtime.bigint();
    await action();
    times.push(ms(process.hrtime.bigint() - start));
  }
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

/** Deletes the bench's sessions a store holds (a database's, from an earlier run that stopped). */
async function deleteSessions(store) {
  for (const id of SESSION_IDS) {
    await store.delete(id).catch((error) => {
      if (error.code !== 'session_not_found') throw error;
    });
  }
}

const rows = [];
for (const [name, makeStore] of Object.entries(STORES)) {
  const folder = mkdtempSync(join(tmpdir(), 'agentloop-bench-sessions-'));
  try {
    const store = makeStore(folder);
    await deleteSessions(store);
    await store.create({ id: 'bench-small' });
    await store.open('bench-small');
    const fresh = await appendFigures(store, 'bench-small', 1);

    // 10,000 messages: 2,000 turns written as an agent would, then the measured turns.
    await store.create({ id: 'bench-large' });
    await store.open('bench-large');
    for (let turn = 1; turn <= LARGE / 5; turn++) await writeTurn(store, 'bench-large', turn);
    const large = await appendFigures(store, 'bench-large', LARGE / 5 + 1);
    await store.close();

    // Resume the session as it was at 10,000 messages: a fork of it.
    const reader = makeStore(folder);
    await reader.fork('bench-large', { keepMessages: LARGE, id: 'bench-resume' });
    const loadMs = await timed(5, () => reader.load('bench-resume'));
    const before = heapMb();
    let kept = await reader.load('bench-resume');
    const loadHeap = heapMb() - before;
    if (kept.messages.length !== LARGE) throw new Error(`loaded ${kept.messages.length} messages`);
    kept = undefined;

    let agent;
    const resumeMs = await timed(5, async () => {
      agent = new DefaultAgent(idleProvider, { session: { store: reader, id: 'bench-resume' } });
      await agent.openSession();
      await agent.closeSession();
    });
    agent = undefined;
    const beforeAgent = heapMb();
    agent = new DefaultAgent(idleProvider, { session: { store: reader, id: 'bench-resume' } });
    await agent.openSession();
    const agentHeap = heapMb() - beforeAgent;
    if (agent.memory.messages().length !== LARGE) throw new Error('the agent did not resume every message');
    await agent.closeSession();
    await deleteSessions(reader);
    await reader.close();

    rows.push({ name, fresh, large, loadMs, loadHeap, resumeMs, agentHeap });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (server && !('reason' in server)) server.stop();

const f = (value) => value.toFixed(2);
console.log(
  `| store | append a turn (5 messages): median / p99 | at 10k messages: median / p99 | load 10k messages | heap kept | agent.openSession() 10k | heap kept |`,
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${f(row.fresh.median)} / ${f(row.fresh.p99)} ms | ${f(row.large.median)} / ${f(row.large.p99)} ms | ` +
      `${f(row.loadMs)} ms | ${row.loadHeap.toFixed(1)} MB | ${f(row.resumeMs)} ms | ${row.agentHeap.toFixed(1)} MB |`,
  );
}

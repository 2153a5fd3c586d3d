// The HTTP path's costs (@agentloop/executor-http's AG-UI route in a Node server on 127.0.0.1, read by
// fetch), beside the same run in-process, in one run:
//   time to first byte, and to the first text, of a conversation over HTTP, next to the in-process run's
//     time to its first text event;
//   per-event overhead: (HTTP time - in-process time) / events, for a reply of 400 streamed text events;
//   conversations per second with 200 at once through one server;
//   heap after GC across 1,000 sequential conversations (after 100, 500 and 1,000), which must not grow.
// The model is a ScriptedProvider and the agents keep no session, so what is measured is the handler, the
// run manager, the AG-UI mapping and the socket, not a model or a disk.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { DefaultAgent } from '../packages/core/dist/bundle/index.js';
import { ScriptedProvider } from '../packages/core/dist/bundle/testing.js';
import { createAgentHandler } from '../packages/executor-http/dist/index.js';
import { JsonlSessionStore } from '../packages/sessions/dist/index.js';

const TOKEN = 'bench-token-0123456789abcdef';
const TEXT_EVENTS = 400;
const REPLY = 'word '.repeat(TEXT_EVENTS * 2); // 8 characters per chunk: one text event each
const ROUNDS = 200;
const CONCURRENT = 200;
const SEQUENTIAL = 1000;

const script = () => [{ text: REPLY }, { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] }];
const newAgent = () => new DefaultAgent(new ScriptedProvider(script(), { chunkSize: 8 }), { workspace: tmpdir() });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p99 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)];
const ms = (value) => `${value.toFixed(2)} ms`;
const gc = () => globalThis.gc?.();

async function inProcessRun() {
  const agent = newAgent();
  const started = performance.now();
  let firstText;
  let events = 0;
  agent.onAny((event) => {
    events++;
    if (firstText === undefined && event.type === 'message-content') firstText = performance.now() - started;
  });
  await agent.run('Say something long.');
  return { firstText, total: performance.now() - started, events };
}

async function httpRun(url, sessionId) {
  const started = performance.now();
  const response = await fetch(`${url}/api/agui`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      threadId: sessionId,
      runId: `run-${sessionId}`,
      messages: [{ id: 'u', role: 'user', content: 'Say something long.' }],
      tools: [],
      context: [],
    }),
  });
  let firstByte;
  let firstText;
  let events = 0;
  let tail = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    firstByte ??= performance.now() - started;
    const text = tail + decoder.decode(chunk, { stream: true });
    const blocks = text.split('\n\n');
    tail = blocks.pop();
    for (const block of blocks) {
      events++;
      if (firstText === undefined && block.includes('"TEXT_MESSAGE_CONTENT"')) firstText = performance.now() - started;
    }
  }
  if (events < TEXT_EVENTS) throw new Error(`the stream ended after ${events} events`);
  return { firstByte, firstText, total: performance.now() - started, events };
}

const folder = mkdtempSync(join(tmpdir(), 'agentloop-http-bench-'));
const sessions = new JsonlSessionStore({ directory: folder });
const handler = createAgentHandler({ token: TOKEN, sessions, createAgent: () => newAgent() });
const server = await new Promise((resolve) => {
  const listening = serve({ fetch: handler.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    resolve({ url: `http://127.0.0.1:${info.port}`, close: () => new Promise((done) => listening.close(done)) }),
  );
});

try {
  let id = 0;
  // Warm-up: JIT, the socket pool.
  for (let i = 0; i < 20; i++) {
    await inProcessRun();
    await httpRun(server.url, `w${id++}`);
  }

  const local = [];
  const remote = [];
  for (let i = 0; i < ROUNDS; i++) {
    local.push(await inProcessRun());
    remote.push(await httpRun(server.url, `s${id++}`));
  }
  const localTotal = median(local.map((run) => run.total));
  const remoteTotal = median(remote.map((run) => run.total));
  const agentEvents = local[0].events;
  const aguiEvents = remote[0].events;
  console.log(`One conversation (${agentEvents} agent events, ${aguiEvents} AG-UI events), median of ${ROUNDS}:`);
  console.log('| | in-process | HTTP (AG-UI) |');
  console.log('| --- | --- | --- |');
  console.log(
    `| first byte | — | ${ms(median(remote.map((run) => run.firstByte)))} (p99 ${ms(p99(remote.map((run) => run.firstByte)))}) |`,
  );
  console.log(
    `| first text | ${ms(median(local.map((run) => run.firstText)))} | ${ms(median(remote.map((run) => run.firstText)))} |`,
  );
  console.log(`| whole run | ${ms(localTotal)} | ${ms(remoteTotal)} |`);
  console.log(
    `| per event | ${((localTotal / agentEvents) * 1000).toFixed(1)} µs | ${((remoteTotal / aguiEvents) * 1000).toFixed(1)} µs |`,
  );
  console.log(
    `Overhead of the HTTP path: ${(((remoteTotal - localTotal) / aguiEvents) * 1000).toFixed(1)} µs per AG-UI event.`,
  );

  const started = performance.now();
  const all = await Promise.all(Array.from({ length: CONCURRENT }, () => httpRun(server.url, `c${id++}`)));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\n${CONCURRENT} conversations at once: all ${all.length} complete in ${ms(seconds * 1000)}, ${(CONCURRENT / seconds).toFixed(0)} conversations/s; runs left ${handler.runs.runCount}, listeners left ${handler.runs.listenerCount}.`,
  );

  const heap = [];
  for (let i = 1; i <= SEQUENTIAL; i++) {
    await httpRun(server.url, `q${id++}`);
    if (i === 100 || i === 500 || i === SEQUENTIAL) {
      gc();
      gc();
      heap.push([i, process.memoryUsage().heapUsed / 1024 / 1024]);
    }
  }
  console.log(
    `\nHeap after GC across ${SEQUENTIAL} sequential conversations: ${heap.map(([at, mb]) => `${mb.toFixed(1)} MB after ${at}`).join(', ')}${globalThis.gc ? '' : ' (run with --expose-gc for figures after a collection)'}.`,
  );
} finally {
  await server.close();
  await handler.close();
  await sessions.close();
  rmSync(folder, { recursive: true, force: true });
}

// A long task with compaction: 200 iterations of a model that reads a ~1,000-token file at each step,
// against a 32k-token window, through the ScriptedProvider (its usage is each request's size, as a provider
// reports it; the summarising calls answer with a fixed summary). Measured: the size of every request the
// agent sent against the compaction threshold (80% of the window), and the heap after GC as the run goes
// on, beside the same run without compaction, whose history only grows.

import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DefaultAgent, DefaultTokenCounter, defineTool } from '../packages/core/dist/index.js';
import { ScriptedProvider } from '../packages/core/dist/testing/index.js';

const ITERATIONS = 200;
const WINDOW = 32_000;
const THRESHOLD = 0.8;
const counter = new DefaultTokenCounter({ loadTokenizer: false });
const size = (request) =>
  counter.countRequest({
    modelId: 'scripted-model',
    systemPrompt: request.systemPrompt,
    messages: request.messages,
    tools: request.tools,
  });

const readFile = defineTool({
  name: 'read_file',
  description: 'Reads a file.',
  parameters: z.object({ path: z.string() }),
  // A flat string of its own for each read, as a file read from disk is (a repeated literal would be shared).
  execute: ({ path }) => `${path}\n${randomBytes(2_600).toString('base64')}`,
});

async function longRun(compaction) {
  const sizes = [];
  let calls = 0;
  const step = (request) => {
    const usage = { inputTokens: size(request), outputTokens: 30 };
    if (request.systemPrompt.startsWith('You compact')) {
      return { text: '## Task\nRead the files one by one.\n## State of the work\nThe files so far are read.', usage };
    }
    sizes.push(usage.inputTokens);
    calls++;
    if (calls >= ITERATIONS)
      return { toolCalls: [{ name: 'task_completion', arguments: { result: 'All read.' } }], usage };
    return {
      text: `Reading file ${calls}.`,
      toolCalls: [{ name: 'read_file', arguments: { path: `src/f${calls}.ts` } }],
      usage,
    };
  };
  const provider = new ScriptedProvider([]);
  const agent = new DefaultAgent(provider, {
    tools: [readFile],
    maxIterations: ITERATIONS,
    onMaxIterations: 'stop',
    contextWindow: WINDOW,
    compaction,
  });
  const heap = [];
  let compactions = 0;
  agent.on('compaction-end', () => compactions++);
  // One step for each request: the loop's, and the summarising call of each compaction.
  agent.on('compaction-start', () => provider.push(step));
  agent.on('loop-iteration', ({ iteration }) => {
    provider.push(step);
    // The provider records every request for a test to read; a benchmark of memory keeps none.
    provider.requests.splice(0);
    if (iteration % 40 === 0 || iteration === 1) {
      global.gc();
      heap.push([iteration, process.memoryUsage().heapUsed]);
    }
  });
  const result = await agent.run('Read every file of the project, one by one.');
  if (result.exit !== 'task_completion') throw new Error(`the run ended with ${result.exit}: ${result.error?.message}`);
  provider.requests.splice(0);
  global.gc();
  heap.push(['the end', process.memoryUsage().heapUsed]);
  return { sizes, heap, compactions, messages: agent.memory.messages().length, result };
}

const MB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const compacted = await longRun({ threshold: THRESHOLD });
const growing = await longRun(false);
const limit = WINDOW * THRESHOLD;

console.log(`| measure | with compaction | without |`);
console.log('| --- | ---: | ---: |');
console.log(`| compactions | ${compacted.compactions} | ${growing.compactions} |`);
console.log(
  `| largest request (threshold ${limit.toLocaleString('en-US')} tokens) | ${Math.max(...compacted.sizes).toLocaleString('en-US')} | ${Math.max(...growing.sizes).toLocaleString('en-US')} |`,
);
console.log(
  `| requests over the threshold | ${compacted.sizes.filter((tokens) => tokens > limit).length} of ${compacted.sizes.length} | ${growing.sizes.filter((tokens) => tokens > limit).length} of ${growing.sizes.length} |`,
);
console.log(`| messages in memory at the end | ${compacted.messages} | ${growing.messages} |`);
for (const [index, [iteration, bytes]] of compacted.heap.entries()) {
  console.log(
    `| heap after GC at ${typeof iteration === 'number' ? `iteration ${iteration}` : iteration} | ${MB(bytes)} | ${MB(growing.heap[index]?.[1] ?? 0)} |`,
  );
}
console.log(
  `| tokens spent (input + output) | ${(compacted.result.usage.inputTokens + compacted.result.usage.outputTokens).toLocaleString('en-US')} | ${(growing.result.usage.inputTokens + growing.result.usage.outputTokens).toLocaleString('en-US')} |`,
);

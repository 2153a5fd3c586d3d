// The loop's own cost: one tool call per iteration against a provider that replays prebuilt chunks at
// once (no network, no recording), so what is measured is DefaultAgent — request assembly, event
// emission, argument validation, tool execution bookkeeping and memory appends.
//   CPU µs per iteration over 1,000 iterations (median of several runs), and
//   heap after GC for 1,000 agents run at once, at two history lengths (memory should grow with history only).

import { z } from 'zod';
import { DefaultAgent, defineTool } from '../packages/core/dist/index.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echo',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

/** A provider that answers `toolSteps` echo calls, then task_completion. */
function replayProvider(toolSteps) {
  let step = 0;
  const call = (name, input) => [
    { type: 'text-delta', text: 'Calling the tool.' },
    { type: 'tool-call', toolCallId: `c${step}`, toolName: name, input },
    { type: 'usage', usage: { inputTokens: 100, outputTokens: 10 } },
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

async function runAgent(toolSteps) {
  // One iteration to spare: the run's last allowed call would be the wrap-up, which ends with max_iterations.
  const agent = new DefaultAgent(replayProvider(toolSteps), { maxIterations: toolSteps + 2, tools: [echo] });
  agent.on('message-content', () => {});
  agent.on('tool-result', () => {});
  const result = await agent.run('go');
  if (result.exit !== 'task_completion') throw new Error(`unexpected exit ${result.exit}: ${result.error?.message}`);
  return agent;
}

async function cpuPerIteration(iterations) {
  const before = process.cpuUsage();
  await runAgent(iterations - 1);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / iterations;
}

async function heapPerAgent(agents, toolSteps) {
  global.gc();
  const base = process.memoryUsage().heapUsed;
  const kept = await Promise.all(Array.from({ length: agents }, () => runAgent(toolSteps)));
  global.gc();
  const used = process.memoryUsage().heapUsed - base;
  if (kept.length !== agents) throw new Error('lost agents');
  return { perAgentKB: used / agents / 1024, messages: kept[0].memory.messages().length };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Warm up the JIT: the aim is the steady-state cost of an iteration.
for (let i = 0; i < 3; i++) await cpuPerIteration(1000);
const runs = [];
for (let i = 0; i < 7; i++) runs.push(await cpuPerIteration(1000));
console.log('| measure | value | aim |');
console.log('| --- | ---: | --- |');
console.log(
  `| CPU per iteration, 1,000 iterations (median of 7; min ${Math.min(...runs).toFixed(1)}, max ${Math.max(...runs).toFixed(1)}) | ${median(runs).toFixed(1)} µs | ≤ 50 µs |`,
);
for (const toolSteps of [4, 9, 19]) {
  const { perAgentKB, messages } = await heapPerAgent(1000, toolSteps);
  console.log(
    `| heap after GC per agent, 1,000 agents at once, ${toolSteps + 1} iterations (${messages} messages each) | ${perAgentKB.toFixed(1)} KB | grows with history only |`,
  );
}

// Child process: the same tool loop as DefaultAgent with an agentloop provider (built dist files).
// argv: vendor (anthropic | openai), streaming (true | false), baseURL, runs, warmup, toolSteps.
import { DefaultAgent } from '@agentloop/core';
import { addTool } from './add-tool.mjs';
import { createBenchProvider } from './create-bench-provider.mjs';
import { measure } from './measure.mjs';

const [vendor, streamingFlag, baseURL, runs, warmup, toolSteps] = process.argv.slice(2);
const streaming = streamingFlag === 'true';

const provider = await createBenchProvider(vendor, baseURL, streaming);
const calls = Number(toolSteps) + 1;
async function runOnce() {
  const agent = new DefaultAgent(provider, { maxIterations: calls, toolProtocol: 'native', tools: [addTool] });
  const result = await agent.run('Add the numbers step by step, then finish.');
  if (result.exit !== 'task_completion' || result.iterations !== calls)
    throw new Error(`unexpected end: ${result.exit} after ${result.iterations}: ${result.error?.message}`);
}
await measure({ runOnce, runs: Number(runs), warmup: Number(warmup), callsPerRun: calls });

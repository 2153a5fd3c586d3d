// Child process: the same tool loop as DefaultAgent with an agentloop provider (built dist files).
// argv: see child-args.mjs (the request template is not used: the agent makes its own).
import { DefaultAgent } from '@agentloop/core';
import { addTool } from './add-tool.mjs';
import { childArgs, INPUT } from './child-args.mjs';
import { createBenchProvider } from './create-bench-provider.mjs';
import { measure } from './measure.mjs';

const { vendor, streaming, baseURL, runs, warmup, toolSteps, concurrency } = childArgs();
const provider = await createBenchProvider(vendor, baseURL, streaming);
const calls = toolSteps + 1;
async function runOnce() {
  // One iteration to spare (calls + 1): the last allowed call would be the wrap-up call, which offers only
  // the loop-control tools and would end the run with max_iterations.
  const agent = new DefaultAgent(provider, { maxIterations: calls + 1, toolProtocol: 'native', tools: [addTool] });
  const result = await agent.run(INPUT);
  if (result.exit !== 'task_completion' || result.iterations !== calls)
    throw new Error(`unexpected end: ${result.exit} after ${result.iterations}: ${result.error?.message}`);
  return agent;
}
await measure({ runOnce, runs, warmup, callsPerRun: calls, concurrency });

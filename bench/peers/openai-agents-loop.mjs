// Child process: the same tool loop written with OpenAI Agents (`@openai/agents`, pinned in
// bench/peers/package.json), pointed at the local server through its default OpenAI client and the Chat
// Completions API (the scripted server speaks Chat Completions, as agentloop's OpenAI provider does).
// The tools are the agent's (the template's JSON schemas, not strict); the run stops at task_completion
// (`toolUseBehavior.stopAtToolNames`). Tracing is off: nothing leaves the machine. OpenAI only.
// argv: see ../providers/child-args.mjs. Install first: `npm --prefix bench/peers ci`.
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { childArgs, INPUT, templateSystem, templateTools } from '../providers/child-args.mjs';
import { measure } from '../providers/measure.mjs';

const { vendor, streaming, baseURL, runs, warmup, toolSteps, template, concurrency } = childArgs();
if (vendor !== 'openai') throw new Error(`OpenAI Agents runs the openai path only, not ${vendor}.`);
const calls = toolSteps + 1;
setTracingDisabled(true);
setOpenAIAPI('chat_completions');
setDefaultOpenAIClient(new OpenAI({ apiKey: 'bench', baseURL: `${baseURL}/v1`, maxRetries: 0 }));

const agent = new Agent({
  name: 'bench',
  instructions: templateSystem(template),
  model: 'gpt-4o',
  modelSettings: { toolChoice: 'required', maxTokens: 16_384 },
  resetToolChoice: false,
  toolUseBehavior: { stopAtToolNames: ['task_completion'] },
  tools: templateTools(vendor, template).map(({ name, description, inputSchema }) =>
    tool({
      name,
      description,
      parameters: inputSchema,
      strict: false,
      execute: name === 'add' ? ({ a, b }) => String(a + b) : () => 'done',
    }),
  ),
});

async function runOnce() {
  const result = await run(agent, INPUT, { maxTurns: calls + 1, stream: streaming });
  if (streaming) {
    for await (const _event of result) {
      // Consumed as an app would read the events.
    }
    await result.completed;
  }
  const responses = result.rawResponses.length;
  if (responses !== calls) throw new Error(`unexpected end after ${responses} model calls`);
  return result;
}
await measure({ runOnce, runs, warmup, callsPerRun: calls, concurrency });

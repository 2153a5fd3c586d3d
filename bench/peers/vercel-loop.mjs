// Child process: the same tool loop written with the Vercel AI SDK (`ai` + `@ai-sdk/anthropic` /
// `@ai-sdk/openai`, pinned in bench/peers/package.json), as its docs write one: generateText or
// streamText with tools and `stopWhen`. The tools are the agent's (the template's JSON schemas): `add`
// executes, the loop-control tools have no `execute`, so the SDK's loop ends when the model calls
// task_completion. OpenAI goes through Chat Completions (`openai.chat`), as agentloop's provider does.
// argv: see ../providers/child-args.mjs. Install first: `npm --prefix bench/peers ci`.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, jsonSchema, streamText, tool } from 'ai';
import { childArgs, INPUT, templateSystem, templateTools } from '../providers/child-args.mjs';
import { measure } from '../providers/measure.mjs';

const { vendor, streaming, baseURL, runs, warmup, toolSteps, template, concurrency } = childArgs();
const calls = toolSteps + 1;
const model =
  vendor === 'anthropic'
    ? createAnthropic({ apiKey: 'bench', baseURL: `${baseURL}/v1` })('claude-sonnet-4-6')
    : createOpenAI({ apiKey: 'bench', baseURL: `${baseURL}/v1` }).chat('gpt-4o');
const tools = Object.fromEntries(
  templateTools(vendor, template).map(({ name, description, inputSchema }) => [
    name,
    tool({
      description,
      inputSchema: jsonSchema(inputSchema),
      ...(name === 'add' ? { execute: ({ a, b }) => String(a + b) } : {}),
    }),
  ]),
);
const options = {
  model,
  system: templateSystem(template),
  prompt: INPUT,
  tools,
  toolChoice: 'required',
  maxOutputTokens: 16_384,
  maxRetries: 0,
  stopWhen: isStepCount(calls + 1),
};

async function runOnce() {
  let steps;
  if (streaming) {
    const result = streamText(options);
    for await (const part of result.fullStream) if (part.type === 'error') throw part.error;
    steps = await result.steps;
  } else {
    steps = (await generateText(options)).steps;
  }
  const last = steps.at(-1);
  if (steps.length !== calls || last.toolCalls[0]?.toolName !== 'task_completion')
    throw new Error(`unexpected end after ${steps.length} steps: ${last?.finishReason}`);
  return steps;
}
await measure({ runOnce, runs, warmup, callsPerRun: calls, concurrency });

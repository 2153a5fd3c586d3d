// The floor under `agentloop run`: one streamed Chat Completions call with the OpenAI SDK alone (the one the
// providers package depends on), printing the answer's tool call, then exiting. Argument: the server's
// base URL. bench/cli.bench.mjs times it beside `agentloop run` of the same one-step task.
import { createRequire } from 'node:module';

// Resolved from the providers package, which is where the SDK is installed.
const require = createRequire(new URL('../../packages/providers/package.json', import.meta.url));
const { default: OpenAI } = await import(require.resolve('openai'));
const client = new OpenAI({ apiKey: 'bench', baseURL: process.argv[2] });
// Streamed, as `agentloop run` asks (the scripted server answers in server-sent events).
const stream = await client.chat.completions.create({
  model: 'test-model',
  messages: [{ role: 'user', content: 'finish at once' }],
  stream: true,
});
let name = 'no tool call';
for await (const chunk of stream) name = chunk.choices[0]?.delta.tool_calls?.[0]?.function?.name ?? name;
process.stdout.write(`${name}\n`);

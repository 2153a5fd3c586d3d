// Child process: the tool loop written by hand over the bare SDK (no agentloop code at all); the loop
// itself is hand-written-loop.mjs, shared with the raw kind.
// argv: see child-args.mjs. It sends the same system prompt and tool list as the agent (the template,
// captured from the agent's first request), and returns its messages as the loop's result.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { childArgs } from './child-args.mjs';
import { handWrittenLoop } from './hand-written-loop.mjs';
import { measure } from './measure.mjs';

const { vendor, streaming, baseURL, runs, warmup, toolSteps, template, concurrency } = childArgs();
const providersRequire = createRequire(new URL('../../packages/providers/package.json', import.meta.url));
// The ESM build of the SDK the providers package itself loads.
const sdkEntry = (name, file) => pathToFileURL(join(dirname(providersRequire.resolve(name)), file)).href;

/** Sends a request through the vendor's SDK: its stream of events, or its parsed answer. */
async function sdkSend() {
  if (vendor === 'anthropic') {
    const { default: Anthropic } = await import(sdkEntry('@anthropic-ai/sdk', 'index.mjs'));
    const client = new Anthropic({ apiKey: 'bench', baseURL, maxRetries: 0 });
    return (body) => client.messages.create(body);
  }
  const { default: OpenAI } = await import(sdkEntry('openai', 'index.mjs'));
  const client = new OpenAI({ apiKey: 'bench', baseURL: `${baseURL}/v1`, maxRetries: 0 });
  return (body) => client.chat.completions.create(body);
}

const runOnce = handWrittenLoop({ vendor, streaming, template, send: await sdkSend() });
await measure({ runOnce, runs, warmup, callsPerRun: toolSteps + 1, concurrency });

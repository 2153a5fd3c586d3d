// Child process: the tool loop written over raw `fetch` (no SDK, no agentloop code): the floor under
// every other kind. It sends the bare SDK loop's requests (the agent's system prompt and tools) and reads
// the answers itself: JSON, or the server-sent events split on blank lines. The loop itself is
// hand-written-loop.mjs, shared with the bare kind.
// argv: see child-args.mjs. Returns its messages as the loop's result.
import { childArgs } from './child-args.mjs';
import { handWrittenLoop } from './hand-written-loop.mjs';
import { measure } from './measure.mjs';

const { vendor, streaming, baseURL, runs, warmup, toolSteps, template, concurrency } = childArgs();
const anthropic = vendor === 'anthropic';
const url = anthropic ? `${baseURL}/v1/messages` : `${baseURL}/v1/chat/completions`;
const headers = anthropic
  ? { 'content-type': 'application/json', 'x-api-key': 'bench', 'anthropic-version': '2023-06-01' }
  : { 'content-type': 'application/json', authorization: 'Bearer bench' };

async function post(body) {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  return response;
}

/** The `data:` payloads of a server-sent event stream, parsed, as they arrive. */
async function* events(response) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of response.body) {
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      for (const line of buffer.slice(0, end).split('\n'))
        if (line.startsWith('data: ') && line !== 'data: [DONE]') yield JSON.parse(line.slice(6));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
  }
}

/** Sends a request over fetch: the parsed server-sent events when it streams, else the parsed JSON body. */
async function send(body) {
  const response = await post(body);
  return body.stream ? events(response) : response.json();
}

await measure({
  runOnce: handWrittenLoop({ vendor, streaming, template, send }),
  runs,
  warmup,
  callsPerRun: toolSteps + 1,
  concurrency,
});

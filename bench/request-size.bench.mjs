// What the framework adds to every request: the built-in system prompt and the three loop-control tool
// schemas (the "fixed part"), in bytes as sent and in tokens, per protocol and vendor. Each agent is built
// as an app builds it (DefaultAgent, no app prompt, no app tools) with the real provider against a local
// server on 127.0.0.1 that records each request body; so the bytes are the provider's own serialisation.
//
// Each run makes two model calls (the first answer calls no tool, so the loop reminds and asks again) and
// is made twice: the table says whether the fixed part was byte-identical on every call of every run,
// which is what a provider's prompt cache needs.
//
// - bytes: the system prompt and the tool list as JSON in the request body (`messages[role=system]` and
//   `tools` for Chat Completions, `instructions` and `tools` for Responses, `system` and `tools` for
//   Anthropic), and the whole first request for reference (it also holds a one-line user message).
// - tokens: DefaultTokenCounter's count of the same request without messages: with gpt-tokenizer (the
//   counter's tokenizer for OpenAI models) and with its 3.5-characters-a-token estimate. Both include the
//   counter's allowance for a vendor's own tool-use framing, which the vendor adds on its side.
// - before: this bench's figures at commit 1075070, before the prompt and the tool descriptions were cut
//   down to shrink every request; rerun this file on that commit to reproduce them.
//
// Run: `npx turbo run build`, then `npm run bench -- request-size`. No timings: the figures are exact.
import { createServer } from 'node:http';
import { DefaultAgent, PromptBuilder } from '@agentloop/core';
import { AnthropicProvider } from '@agentloop/providers/anthropic';
import { OpenAIProvider, OpenAIResponsesProvider } from '@agentloop/providers/openai';
import { DefaultTokenCounter } from '../packages/memory/dist/index.js';

const BEFORE = {
  'native, OpenAI Chat': { bytes: 2593, tokens: 561, estimate: 729, counted: 850, request: 2715 },
  'native, OpenAI Responses': { bytes: 2569, tokens: 564, estimate: 730, counted: 850, request: 2719 },
  'native, Anthropic': { bytes: 2586, tokens: 557, estimate: 718, counted: 853, request: 2815 },
  'xml, OpenAI Chat': { bytes: 3989, tokens: 897, estimate: 1088, counted: 897, request: 4109 },
  'xml, Anthropic': { bytes: 4032, tokens: 900, estimate: 1091, counted: 900, request: 4265 },
};

const CASES = [
  { name: 'native, OpenAI Chat', vendor: 'chat', protocol: 'native' },
  { name: 'native, OpenAI Responses', vendor: 'responses', protocol: 'native' },
  { name: 'native, Anthropic', vendor: 'anthropic', protocol: 'native' },
  { name: 'xml, OpenAI Chat', vendor: 'chat', protocol: 'xml' },
  { name: 'xml, Anthropic', vendor: 'anthropic', protocol: 'xml' },
  // What an app can still cut: no base instructions, no chain-of-thought section (see core's README).
  { name: 'native, OpenAI Chat, trimmed', vendor: 'chat', protocol: 'native', trimmed: true },
];

const XML_COMPLETION =
  '<thinking>Done.</thinking>\n<tool>\n{"server_name": "local", "tool_name": "task_completion", "arguments": {"result": "3"}}\n</tool>';

/** The answer to a request: text without a tool call first, then a `task_completion` call. */
function answer(vendor, body) {
  const count = vendor === 'responses' ? body.input.length : body.messages.length;
  const first = count <= (vendor === 'chat' ? 2 : 1);
  const xml = !body.tools || body.tools.length === 0;
  const text = first ? 'Let me think.' : xml ? XML_COMPLETION : '';
  const call = first || xml ? undefined : { id: 'call_1', name: 'task_completion', input: { result: '3' } };
  if (vendor === 'anthropic') {
    return {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [
        ...(text ? [{ type: 'text', text }] : []),
        ...(call ? [{ type: 'tool_use', id: call.id, name: call.name, input: call.input }] : []),
      ],
      stop_reason: call ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 10 },
    };
  }
  if (vendor === 'responses') {
    return {
      id: 'resp_1',
      object: 'response',
      created_at: 1,
      status: 'completed',
      model: 'gpt-4o',
      output: call
        ? [
            {
              type: 'function_call',
              id: 'fc_1',
              call_id: call.id,
              name: call.name,
              arguments: JSON.stringify(call.input),
              status: 'completed',
            },
          ]
        : [
            {
              type: 'message',
              id: 'msg_1',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text, annotations: [] }],
            },
          ],
      usage: { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
    };
  }
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || null,
          ...(call && {
            tool_calls: [
              { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } },
            ],
          }),
        },
        finish_reason: call ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  };
}

/** A server that answers as the vendor would and keeps every request body, raw and parsed. */
async function startCapturingServer() {
  const bodies = [];
  const server = createServer(async (request, response) => {
    let text = '';
    for await (const piece of request) text += piece;
    const body = JSON.parse(text);
    const vendor = request.url.endsWith('/messages')
      ? 'anthropic'
      : request.url.endsWith('/responses')
        ? 'responses'
        : 'chat';
    bodies.push({ vendor, text, body });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer(vendor, body)));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    bodies,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function createProvider(vendor, url) {
  if (vendor === 'anthropic')
    return new AnthropicProvider({ model: 'claude-sonnet-4-6', apiKey: 'bench', baseURL: url, streaming: false });
  const options = { model: 'gpt-4o', apiKey: 'bench', baseURL: `${url}/v1`, compatible: false, streaming: false };
  return vendor === 'responses' ? new OpenAIResponsesProvider(options) : new OpenAIProvider(options);
}

/** The fixed part of a request body: as the JSON the body carries, and as the text the model reads. */
function fixedPart(vendor, body) {
  const tools = JSON.stringify(body.tools ?? []);
  let system;
  if (vendor === 'anthropic') system = body.system ?? '';
  else if (vendor === 'responses') system = body.instructions ?? '';
  else system = body.messages.filter((message) => message.role === 'system' || message.role === 'developer');
  const parts = typeof system === 'string' ? [system] : system.map((part) => part.content ?? part.text);
  const text = [...parts, ...(body.tools?.length ? [tools] : [])].join('\n');
  return { wire: JSON.stringify(system) + tools, text };
}

/** Runs one agent (two calls) and returns each call's ModelRequest and wire body. */
async function runOnce(testCase, server) {
  const inner = createProvider(testCase.vendor, server.url);
  const requests = [];
  // Keeps the ModelRequest the loop built, for the token counter; the wire body comes from the server.
  const provider = {
    specificationVersion: inner.specificationVersion,
    id: inner.id,
    capabilities: inner.capabilities,
    stream(request) {
      requests.push(request);
      return inner.stream(request);
    },
  };
  const start = server.bodies.length;
  const promptBuilder = testCase.trimmed ? new PromptBuilder({ baseInstructions: '' }) : undefined;
  promptBuilder?.remove('chain-of-thought');
  const agent = new DefaultAgent(provider, {
    toolProtocol: testCase.protocol,
    ...(promptBuilder && { promptBuilder }),
  });
  const result = await agent.run('What is 1 + 2?');
  if (result.exit !== 'task_completion') throw new Error(`${testCase.name}: the run ended with ${result.exit}.`);
  return { requests, bodies: server.bodies.slice(start) };
}

const server = await startCapturingServer();
const exact = new DefaultTokenCounter();
await exact.prepare('gpt-4o');
const estimate = new DefaultTokenCounter({ loadTokenizer: false });
const rows = [];
try {
  for (const testCase of CASES) {
    const runs = [await runOnce(testCase, server), await runOnce(testCase, server)];
    const parts = runs.flatMap((run) => run.bodies.map((captured) => fixedPart(testCase.vendor, captured.body)));
    const [request] = runs[0].requests;
    const counted = { modelId: 'gpt-4o', systemPrompt: request.systemPrompt, messages: [], tools: request.tools };
    rows.push({
      ...testCase,
      bytes: Buffer.byteLength(parts[0].wire),
      tokens: exact.countText(parts[0].text, 'gpt-4o'),
      estimate: estimate.countText(parts[0].text, 'gpt-4o'),
      counted: exact.countRequest(counted),
      request: Buffer.byteLength(runs[0].bodies[0].text),
      stable: parts.length === 4 && parts.every((part) => part.wire === parts[0].wire),
    });
  }
} finally {
  await server.close();
}

const cell = (after, before) => (before ? `${after} (${before})` : String(after));
console.log('The fixed part of every request (system prompt and loop-control tools); before the change in brackets.');
console.log('"counter" is DefaultTokenCounter.countRequest, which adds 300 + 10 a tool for the vendor\'s own');
console.log('tool-use framing when tools are sent natively.\n');
console.log(
  '| protocol, vendor | bytes | tokens, gpt-tokenizer | tokens, 3.5 chars | counter | first request, bytes | same on every call |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
for (const row of rows) {
  const before = BEFORE[row.name] ?? {};
  const cells = ['bytes', 'tokens', 'estimate', 'counted', 'request'].map((key) => cell(row[key], before[key]));
  console.log(`| ${row.name} | ${cells.join(' | ')} | ${row.stable ? 'yes' : 'NO'} |`);
}
if (rows.some((row) => !row.stable)) {
  console.error('\nThe fixed part changed between calls: a provider cannot cache it.');
  process.exitCode = 1;
}

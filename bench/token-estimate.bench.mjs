// How far the token estimate is from what providers reported, on the recorded fixtures of
// packages/providers/src/__fixtures__: for each recorded response, the estimate of its message as the next
// request carries it (text, reasoning, tool calls, and their framing) against the output tokens the
// provider reported; for each recorded request, the estimate of the whole request against the reported
// input tokens. The estimate is DefaultTokenCounter's without a
// tokenizer (3.5 characters a token and the framing of messages, calls and results); for OpenAI models the
// table also shows gpt-tokenizer's count, which the counter uses once it has loaded it.
//
// The fixtures are small (tens to hundreds of tokens): a fixed overhead the estimate cannot see (Anthropic's
// tool-use system prompt, a structured-output schema) weighs heavily on them, so the table shows both the
// error in tokens and in percent.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefaultTokenCounter, loadTokenizer } from '../packages/memory/dist/index.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../packages/providers/src/__fixtures__');

/** The JSON events of an SSE body or a JSON-lines file. */
function events(text) {
  const found = [];
  for (let line of text.split('\n')) {
    line = line.trim();
    if (line.startsWith('data:')) line = line.slice(5).trim();
    if (!line.startsWith('{')) continue;
    try {
      found.push(JSON.parse(line));
    } catch {
      // An event split over lines, or not JSON: not one of the usage-bearing events read here.
    }
  }
  return found;
}

/** An assistant message and the provider's report, from an Anthropic stream. */
function anthropicStream(list) {
  const content = [];
  let model;
  let output;
  for (const event of list) {
    if (event.type === 'message_start') {
      model = event.message.model;
      output = event.message.usage?.output_tokens;
    } else if (event.type === 'content_block_start') {
      const block = event.content_block;
      if (block.type === 'tool_use')
        content.push({ type: 'tool-call', toolCallId: block.id, toolName: block.name, json: '' });
      else if (block.type === 'thinking') content.push({ type: 'thinking', text: '' });
      else content.push({ type: 'text', text: block.text ?? '' });
    } else if (event.type === 'content_block_delta') {
      const part = content.at(-1);
      const delta = event.delta;
      if (delta.type === 'input_json_delta') part.json += delta.partial_json;
      else if (delta.type === 'thinking_delta') part.text += delta.thinking;
      else if (delta.type === 'text_delta') part.text += delta.text;
    } else if (event.type === 'message_delta' && event.usage?.output_tokens !== undefined) {
      output = event.usage.output_tokens;
    }
  }
  return { model, output, message: assistant(content) };
}

/** An assistant message and the provider's report, from an OpenAI Chat Completions stream or body. */
function chatCompletion(list) {
  let text = '';
  const calls = new Map();
  let model;
  let output;
  for (const event of list) {
    model = event.model ?? model;
    for (const choice of event.choices ?? []) {
      const delta = choice.delta ?? choice.message ?? {};
      text += (delta.content ?? '') + (delta.refusal ?? '');
      for (const call of delta.tool_calls ?? []) {
        const entry = calls.get(call.index ?? 0) ?? { name: '', json: '' };
        entry.name += call.function?.name ?? '';
        entry.json += call.function?.arguments ?? '';
        calls.set(call.index ?? 0, entry);
      }
    }
    if (event.usage)
      output = event.usage.completion_tokens - (event.usage.completion_tokens_details?.reasoning_tokens ?? 0);
  }
  const content = [
    ...(text ? [{ type: 'text', text }] : []),
    ...[...calls.values()].map((call, index) => ({
      type: 'tool-call',
      toolCallId: `c${index}`,
      toolName: call.name,
      json: call.json,
    })),
  ];
  return { model, output, message: assistant(content) };
}

/** The responses of an OpenAI Responses stream, each with its report (visible output: reasoning left out). */
function responsesStream(list) {
  return list
    .filter((event) => event.type === 'response.completed')
    .map(({ response }) => {
      const content = [];
      for (const item of response.output) {
        if (item.type === 'function_call')
          content.push({ type: 'tool-call', toolCallId: item.call_id, toolName: item.name, json: item.arguments });
        if (item.type === 'message')
          for (const part of item.content)
            if (part.type === 'output_text') content.push({ type: 'text', text: part.text });
      }
      const usage = response.usage;
      return {
        model: response.model,
        output: usage.output_tokens - (usage.output_tokens_details?.reasoning_tokens ?? 0),
        message: assistant(content),
      };
    });
}

function assistant(content) {
  return {
    role: 'assistant',
    content: content.map((part) =>
      part.type === 'tool-call'
        ? { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, arguments: parse(part.json) }
        : part,
    ),
  };
}

function parse(json) {
  try {
    return JSON.parse(json || '{}');
  } catch {
    return json;
  }
}

/** The recorded responses with the output tokens their provider reported. */
function outputs() {
  const samples = [];
  for (const vendor of readdirSync(FIXTURES)) {
    const folder = join(FIXTURES, vendor);
    if (!vendor.includes('-') && vendor !== 'vercel-ai') continue;
    for (const file of readdirSync(folder).sort()) {
      if (file === 'LICENSE' || file === 'README.md' || (vendor === 'anthropic-sdk-python' && file.endsWith('.json')))
        continue;
      const text = readFileSync(join(folder, file), 'utf8');
      let list = events(text);
      if (file.endsWith('.json')) {
        const body = JSON.parse(text);
        if (body.type === 'message') {
          samples.push({
            file,
            ...anthropicStream([{ type: 'message_start', message: { ...body, content: [] } }]),
            message: assistant(body.content),
            output: body.usage.output_tokens,
          });
          continue;
        }
        list = body.attempts ? body.attempts.map((attempt) => attempt.rawResponseBody) : [body];
      }
      if (list.some((event) => event.type === 'message_start')) samples.push({ file, ...anthropicStream(list) });
      else if (list.some((event) => event.type === 'response.completed'))
        samples.push(...responsesStream(list).map((sample, index) => ({ file: `${file} #${index + 1}`, ...sample })));
      else if (list.some((event) => event.object?.startsWith('chat.completion')) && list.some((event) => event.usage))
        samples.push({ file, ...chatCompletion(list) });
    }
  }
  // A response of one or two tokens (a refusal, a one-word answer) says nothing about the estimate's ratio.
  return samples.filter((sample) => sample.output >= 5 && sample.message.content.length > 0);
}

/** The recorded Anthropic requests that a 200 answered, with their reported input tokens. */
function inputs() {
  const samples = [];
  const folder = join(FIXTURES, 'anthropic-sdk-python');
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    for (const exchange of JSON.parse(readFileSync(join(folder, file), 'utf8'))) {
      if (exchange.response.status_code !== 200) continue;
      const body = exchange.request.body;
      const answer = exchange.response.body;
      const usage =
        typeof answer === 'string'
          ? events(answer).find((event) => event.type === 'message_start')?.message.usage
          : answer.usage;
      const messages = body.messages.map((message) => ({
        role: message.role,
        content: typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content,
      }));
      const tools = (body.tools ?? []).map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.input_schema,
      }));
      const schema = body.output_config?.format?.schema;
      samples.push({
        file: `${file.slice(0, 8)}… (${tools.length ? `${tools.length} tool` : schema ? 'output schema' : 'text'})`,
        model: body.model,
        input: usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
        request: {
          modelId: body.model,
          systemPrompt: typeof body.system === 'string' ? body.system : '',
          messages,
          tools,
        },
      });
    }
  }
  return samples;
}

const estimate = new DefaultTokenCounter({ loadTokenizer: false });
const exact = new DefaultTokenCounter();
const percent = (value, truth) => `${value >= truth ? '+' : ''}${(((value - truth) / truth) * 100).toFixed(0)}%`;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2
    ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};
const errors = { estimate: [], tokenizer: [] };
const sums = { reported: 0, estimate: 0 };

console.log('| fixture | model | what | reported | estimate | error | gpt-tokenizer | error |');
console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const sample of outputs()) {
  const model = sample.model ?? 'gpt-4o-2024-08-06';
  await exact.prepare(model);
  const guess = estimate.countMessages([sample.message], model);
  errors.estimate.push(Math.abs(guess - sample.output) / sample.output);
  sums.reported += sample.output;
  sums.estimate += guess;
  const counted = (await loadTokenizer(model)) ? exact.countMessages([sample.message], model) : undefined;
  if (counted !== undefined) errors.tokenizer.push(Math.abs(counted - sample.output) / sample.output);
  console.log(
    `| ${sample.file} | ${model} | output | ${sample.output} | ${guess} | ${percent(guess, sample.output)} | ${counted ?? '–'} | ${counted === undefined ? '–' : percent(counted, sample.output)} |`,
  );
}
for (const sample of inputs()) {
  const guess = estimate.countRequest(sample.request);
  errors.estimate.push(Math.abs(guess - sample.input) / sample.input);
  sums.reported += sample.input;
  sums.estimate += guess;
  console.log(
    `| ${sample.file} | ${sample.model} | input | ${sample.input} | ${guess} | ${percent(guess, sample.input)} | – | – |`,
  );
}
console.log('');
console.log('| estimate | samples | median error | largest error |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, list] of Object.entries(errors)) {
  if (list.length === 0) continue;
  console.log(
    `| ${name === 'estimate' ? '3.5 characters a token' : 'gpt-tokenizer (OpenAI)'} | ${list.length} | ${(median(list) * 100).toFixed(0)}% | ${(Math.max(...list) * 100).toFixed(0)}% |`,
  );
}
console.log('');
console.log(
  `All samples added up: ${sums.reported} tokens reported, ${sums.estimate} estimated (${percent(sums.estimate, sums.reported)}).`,
);

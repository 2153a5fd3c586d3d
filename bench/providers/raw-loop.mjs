// Child process: the tool loop written over raw `fetch` (no SDK, no agentloop code): the floor under
// every other kind. It sends the bare SDK loop's requests (the agent's system prompt and tools) and reads
// the answers itself: JSON, or the server-sent events split on blank lines.
// argv: see child-args.mjs. Returns its messages as the loop's result.
import { childArgs, INPUT } from './child-args.mjs';
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

async function anthropicLoop() {
  const messages = [{ role: 'user', content: [{ type: 'text', text: INPUT }] }];
  for (;;) {
    const request = {
      model: 'claude-sonnet-4-6',
      max_tokens: 16_384,
      system: template.system,
      tools: template.tools,
      tool_choice: { type: 'any' },
      messages,
      stream: streaming,
    };
    let content;
    if (streaming) {
      content = [];
      let json = '';
      for await (const event of events(await post(request))) {
        if (event.type === 'content_block_start') {
          content.push(event.content_block.type === 'text' ? { type: 'text', text: '' } : { ...event.content_block });
          json = '';
        } else if (event.type === 'content_block_delta') {
          const block = content.at(-1);
          if (event.delta.type === 'text_delta') block.text += event.delta.text;
          else if (event.delta.type === 'input_json_delta') json += event.delta.partial_json;
        } else if (event.type === 'content_block_stop') {
          const block = content.at(-1);
          if (block.type === 'tool_use') block.input = JSON.parse(json || '{}');
        }
      }
    } else {
      content = (await (await post(request)).json()).content;
    }
    messages.push({ role: 'assistant', content });
    const calls = content.filter((block) => block.type === 'tool_use');
    if (calls.some((call) => call.name === 'task_completion')) return messages;
    messages.push({
      role: 'user',
      content: calls.map((call) => ({
        type: 'tool_result',
        tool_use_id: call.id,
        content: String(call.input.a + call.input.b),
      })),
    });
  }
}

async function openaiLoop() {
  const messages = [
    { role: 'system', content: template.system },
    { role: 'user', content: INPUT },
  ];
  for (;;) {
    const request = { model: 'gpt-4o', messages, tools: template.tools, tool_choice: 'required' };
    let message;
    if (streaming) {
      message = { role: 'assistant', content: '', tool_calls: [] };
      const response = await post({ ...request, stream: true, stream_options: { include_usage: true } });
      for await (const chunk of events(response)) {
        const delta = chunk.choices[0]?.delta;
        if (!delta) continue;
        if (delta.content) message.content += delta.content;
        for (const piece of delta.tool_calls ?? []) {
          message.tool_calls[piece.index] ??= { id: piece.id, type: 'function', function: { name: '', arguments: '' } };
          const call = message.tool_calls[piece.index];
          if (piece.function?.name) call.function.name = piece.function.name;
          if (piece.function?.arguments) call.function.arguments += piece.function.arguments;
        }
      }
    } else {
      const { role, content, tool_calls } = (await (await post({ ...request, stream: false })).json()).choices[0]
        .message;
      message = { role, content, tool_calls };
    }
    messages.push(message);
    const calls = message.tool_calls.map((call) => ({
      id: call.id,
      name: call.function.name,
      input: JSON.parse(call.function.arguments),
    }));
    if (calls.some((call) => call.name === 'task_completion')) return messages;
    for (const call of calls)
      messages.push({ role: 'tool', tool_call_id: call.id, content: String(call.input.a + call.input.b) });
  }
}

await measure({
  runOnce: anthropic ? anthropicLoop : openaiLoop,
  runs,
  warmup,
  callsPerRun: toolSteps + 1,
  concurrency,
});

// The tool loop written by hand, as an app would over a vendor's wire format, that the bare (SDK) and raw
// (fetch) kinds share: they differ only in how a request goes out and its answer comes back, which is
// what they measure. It sends the agent's system prompt and tools (the template) and keeps the messages.
import { INPUT } from './child-args.mjs';

/**
 * One run of the loop: it resolves with its messages once the model calls task_completion.
 *
 * @param {object} loop
 * @param {'anthropic' | 'openai'} loop.vendor
 * @param {boolean} loop.streaming
 * @param {{ system: unknown; tools: unknown[] }} loop.template
 * @param {(body: Record<string, unknown>) => Promise<any>} loop.send sends a request body and gives its
 *   parsed events (an async iterable) when the body says `stream: true`, else its parsed JSON body
 * @returns {() => Promise<unknown[]>}
 */
export function handWrittenLoop({ vendor, streaming, template, send }) {
  return vendor === 'anthropic'
    ? () => anthropicLoop(streaming, template, send)
    : () => openaiLoop(streaming, template, send);
}

async function anthropicLoop(streaming, template, send) {
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
    const content = streaming ? await anthropicContent(await send(request)) : (await send(request)).content;
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

/** The content blocks of a streamed Messages API answer, from its events. */
async function anthropicContent(events) {
  const content = [];
  let json = '';
  for await (const event of events) {
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
  return content;
}

async function openaiLoop(streaming, template, send) {
  const messages = [
    { role: 'system', content: template.system },
    { role: 'user', content: INPUT },
  ];
  for (;;) {
    const request = { model: 'gpt-4o', messages, tools: template.tools, tool_choice: 'required' };
    let message;
    if (streaming) {
      message = await openaiMessage(await send({ ...request, stream: true, stream_options: { include_usage: true } }));
    } else {
      const { role, content, tool_calls } = (await send({ ...request, stream: false })).choices[0].message;
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

/** The assistant message of a streamed Chat Completions answer, from its chunks. */
async function openaiMessage(chunks) {
  const message = { role: 'assistant', content: '', tool_calls: [] };
  for await (const chunk of chunks) {
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
  return message;
}

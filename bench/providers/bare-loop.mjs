// Child process: the tool loop written by hand over the bare SDK (no agentloop code at all).
// argv: see child-args.mjs. It sends the same system prompt and tool list as the agent (the template,
// captured from the agent's first request), and returns its messages as the loop's result.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { childArgs, INPUT } from './child-args.mjs';
import { measure } from './measure.mjs';

const { vendor, streaming, baseURL, runs, warmup, toolSteps, template, concurrency } = childArgs();
const providersRequire = createRequire(new URL('../../packages/providers/package.json', import.meta.url));
// The ESM build of the SDK the providers package itself loads.
const sdkEntry = (name, file) => pathToFileURL(join(dirname(providersRequire.resolve(name)), file)).href;

async function anthropicLoop() {
  const { default: Anthropic } = await import(sdkEntry('@anthropic-ai/sdk', 'index.mjs'));
  const client = new Anthropic({ apiKey: 'bench', baseURL, maxRetries: 0 });
  return async () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: INPUT }] }];
    for (;;) {
      const request = {
        model: 'claude-sonnet-4-6',
        max_tokens: 16_384,
        system: template.system,
        tools: template.tools,
        tool_choice: { type: 'any' },
        messages,
      };
      let content;
      if (streaming) {
        content = [];
        const stream = await client.messages.create({ ...request, stream: true });
        let json = '';
        for await (const event of stream) {
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
        content = (await client.messages.create({ ...request, stream: false })).content;
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
  };
}

async function openaiLoop() {
  const { default: OpenAI } = await import(sdkEntry('openai', 'index.mjs'));
  const client = new OpenAI({ apiKey: 'bench', baseURL: `${baseURL}/v1`, maxRetries: 0 });
  return async () => {
    const messages = [
      { role: 'system', content: template.system },
      { role: 'user', content: INPUT },
    ];
    for (;;) {
      const request = { model: 'gpt-4o', messages, tools: template.tools, tool_choice: 'required' };
      let message;
      if (streaming) {
        message = { role: 'assistant', content: '', tool_calls: [] };
        const stream = await client.chat.completions.create({
          ...request,
          stream: true,
          stream_options: { include_usage: true },
        });
        for await (const chunk of stream) {
          const delta = chunk.choices[0]?.delta;
          if (!delta) continue;
          if (delta.content) message.content += delta.content;
          for (const piece of delta.tool_calls ?? []) {
            message.tool_calls[piece.index] ??= {
              id: piece.id,
              type: 'function',
              function: { name: '', arguments: '' },
            };
            const call = message.tool_calls[piece.index];
            if (piece.function?.name) call.function.name = piece.function.name;
            if (piece.function?.arguments) call.function.arguments += piece.function.arguments;
          }
        }
      } else {
        const { role, content, tool_calls } = (await client.chat.completions.create({ ...request, stream: false }))
          .choices[0].message;
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
  };
}

const runOnce = vendor === 'anthropic' ? await anthropicLoop() : await openaiLoop();
await measure({ runOnce, runs, warmup, callsPerRun: toolSteps + 1, concurrency });

// Child process: the tool loop written by hand over an agentloop provider, without DefaultAgent — it
// splits the agent's cost into the provider's share and the loop's.
// argv: vendor (anthropic | openai), streaming (true | false), baseURL, runs, warmup, toolSteps, request template JSON.
import { createBenchProvider } from './create-bench-provider.mjs';
import { measure } from './measure.mjs';

const [vendor, streamingFlag, baseURL, runs, warmup, toolSteps, templateJson] = process.argv.slice(2);
const template = JSON.parse(templateJson);
const provider = await createBenchProvider(vendor, baseURL, streamingFlag === 'true');
const tools = template.tools.map((tool) =>
  vendor === 'anthropic'
    ? { name: tool.name, description: tool.description, inputSchema: tool.input_schema }
    : { name: tool.function.name, description: tool.function.description, inputSchema: tool.function.parameters },
);
const system =
  typeof template.system === 'string' ? template.system : template.system.map((block) => block.text).join('');

async function runOnce() {
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'Add the numbers step by step, then finish.' }] }];
  for (;;) {
    const content = [];
    let text = '';
    for await (const chunk of provider.stream({
      systemPrompt: system,
      messages,
      tools,
      toolChoice: 'required',
      signal: new AbortController().signal,
    })) {
      if (chunk.type === 'text-delta') text += chunk.text;
      else if (chunk.type === 'tool-call')
        content.push({
          type: 'tool-call',
          toolCallId: chunk.toolCallId,
          toolName: chunk.toolName,
          arguments: JSON.parse(chunk.input),
        });
    }
    messages.push({ role: 'assistant', content: [{ type: 'text', text }, ...content] });
    if (content.some((call) => call.toolName === 'task_completion')) return;
    messages.push({
      role: 'tool',
      content: content.map((call) => ({
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        content: String(call.arguments.a + call.arguments.b),
        isError: false,
      })),
    });
  }
}
await measure({ runOnce, runs: Number(runs), warmup: Number(warmup), callsPerRun: Number(toolSteps) + 1 });

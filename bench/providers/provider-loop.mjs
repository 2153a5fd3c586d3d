// Child process: the tool loop written by hand over an agentloop provider, without DefaultAgent — it
// splits the agent's cost into the provider's share and the loop's.
// argv: see child-args.mjs.
import { childArgs, INPUT, templateSystem, templateTools } from './child-args.mjs';
import { createBenchProvider } from './create-bench-provider.mjs';
import { measure } from './measure.mjs';

const { vendor, streaming, baseURL, runs, warmup, toolSteps, template, concurrency } = childArgs();
const provider = await createBenchProvider(vendor, baseURL, streaming);
const tools = templateTools(vendor, template);
const system = templateSystem(template);

async function runOnce() {
  const messages = [{ role: 'user', content: [{ type: 'text', text: INPUT }] }];
  for (;;) {
    const content = [];
    let text = '';
    for await (const batch of provider.stream({
      systemPrompt: system,
      messages,
      tools,
      toolChoice: 'required',
      signal: new AbortController().signal,
    })) {
      for (const chunk of batch) {
        if (chunk.type === 'text-delta') text += chunk.text;
        else if (chunk.type === 'tool-call')
          content.push({
            type: 'tool-call',
            toolCallId: chunk.toolCallId,
            toolName: chunk.toolName,
            arguments: JSON.parse(chunk.input),
          });
      }
    }
    messages.push({ role: 'assistant', content: [{ type: 'text', text }, ...content] });
    if (content.some((call) => call.toolName === 'task_completion')) return messages;
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
await measure({ runOnce, runs, warmup, callsPerRun: toolSteps + 1, concurrency });

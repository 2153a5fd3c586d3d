// An app that loads plugins through the DI container: a third-party tool package (the weather tools) and a
// plugin of its own that replaces a service (the memory, which writes a transcript).
// Run: npm start -w examples/plugin-app [-- "your question"]   (README.md says which model it uses)
import { pathToFileURL } from 'node:url';
import type { AgentResult, LLMProvider } from '@agentloop/core';
import { createContainer, disposeContainer, resolveAgent } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { optionalProviderFromEnvironment } from '@agentloop/providers';
import weatherPlugin from '@agentloop-examples/weather-tools';
import { exitStatus, failureLine } from './failure-line.js';
import { transcriptMemoryPlugin } from './transcript-memory-plugin.js';

/** What the scripted model does when no real one is configured. */
export const script: ScriptStep[] = [
  { toolCalls: [{ name: 'current_weather', arguments: { city: 'Lisbon' } }] },
  { toolCalls: [{ name: 'convert_temperature', arguments: { value: 17, to: 'fahrenheit' } }] },
  { toolCalls: [{ name: 'task_completion', arguments: { result: 'Lisbon: sunny, 17 °C (62.6 °F).' } }] },
];

/**
 * Builds the agent from a container with the weather plugin and the transcript memory (writing to
 * `transcript`), runs one task, and disposes the container, which closes the transcript.
 */
export async function runPluginApp(
  provider: LLMProvider,
  input: string,
  print: (line: string) => void,
  transcript = 'transcript.jsonl',
): Promise<AgentResult> {
  const container = await createContainer({
    provider,
    agentOptions: { systemPrompt: 'You answer weather questions.' },
    plugins: [weatherPlugin, transcriptMemoryPlugin(transcript)],
  });
  try {
    const agent = resolveAgent(container);
    print(`> ${input}`);
    agent.on('message-end', (event) => print(event.text));
    agent.on('tool-call', (event) => print(`→ ${event.name} ${JSON.stringify(event.arguments)}`));
    const result = await agent.run(input);
    if (result.exit === 'task_completion') print(result.payload.result);
    else if (result.exit === 'converse') print(result.payload.message);
    else if (result.exit === 'ask_question') print(`? ${result.payload.question}`);
    return result;
  } finally {
    await disposeContainer(container);
  }
}

async function main(): Promise<number> {
  const configured = await optionalProviderFromEnvironment();
  if (!configured) console.log('(no model provider in the environment: running on a scripted model; see README.md)');
  const result = await runPluginApp(
    configured ?? new ScriptedProvider(script),
    process.argv[2] ?? 'What is the weather in Lisbon, in Fahrenheit?',
    console.log,
  );
  return exitStatus(result, console.error);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // A provider that cannot be set up (a variable missing) is one line too, not a stack trace.
  process.exitCode = await main().catch((error: unknown) => {
    console.error(`✗ ${failureLine(error)}`);
    return 1;
  });
}

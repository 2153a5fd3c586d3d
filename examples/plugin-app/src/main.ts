// An app that loads plugins through the DI container: a third-party tool package (the weather tools) and a
// plugin of its own that replaces a service (the memory, which writes a transcript).
// Run: npm start -w examples/plugin-app -- "your question"
import { pathToFileURL } from 'node:url';
import type { AgentResult, LLMProvider } from '@agentloop/core';
import { createContainer, disposeContainer, resolveAgent } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { optionalProviderFromEnvironment } from '@agentloop/providers';
import weatherPlugin from '@agentloop-examples/weather-tools';
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
    agent.on('tool-call', (event) => print(`→ ${event.name} ${JSON.stringify(event.arguments)}`));
    const result = await agent.run(input);
    print(
      result.exit === 'task_completion'
        ? result.payload.result
        : `(ended with ${result.exit}${result.error ? `: ${result.error.message}` : ''})`,
    );
    return result;
  } finally {
    await disposeContainer(container);
  }
}

async function main(): Promise<void> {
  const configured = await optionalProviderFromEnvironment();
  if (!configured)
    console.log('(no ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL set: running on a scripted model)');
  await runPluginApp(
    configured ?? new ScriptedProvider(script),
    process.argv[2] ?? 'What is the weather in Lisbon, in Fahrenheit?',
    console.log,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

// An app that loads a third-party tool package as a plugin through the DI container.
// Run: npm start -w examples/plugin-app -- "your question"
import { pathToFileURL } from 'node:url';
import type { AgentResult, LLMProvider } from '@agentloop/core';
import { createContainer, resolveAgent } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { optionalProviderFromEnvironment } from '@agentloop/providers';
import weatherPlugin from '@agentloop-examples/weather-tools';

/** What the scripted model does when no real one is configured. */
export const script: ScriptStep[] = [
  { toolCalls: [{ name: 'current_weather', arguments: { city: 'Lisbon' } }] },
  { toolCalls: [{ name: 'convert_temperature', arguments: { value: 17, to: 'fahrenheit' } }] },
  { toolCalls: [{ name: 'task_completion', arguments: { result: 'Lisbon: sunny, 17 °C (62.6 °F).' } }] },
];

/** Builds the agent from a container with the weather plugin and runs one task. */
export async function runPluginApp(
  provider: LLMProvider,
  input: string,
  print: (line: string) => void,
): Promise<AgentResult> {
  const container = await createContainer({
    provider,
    agentOptions: { systemPrompt: 'You answer weather questions.' },
    plugins: [weatherPlugin],
  });
  const agent = resolveAgent(container);
  agent.on('tool-call', (event) => print(`→ ${event.name} ${JSON.stringify(event.arguments)}`));
  const result = await agent.run(input);
  print(
    result.exit === 'task_completion'
      ? result.payload.result
      : `(ended with ${result.exit}${result.error ? `: ${result.error.message}` : ''})`,
  );
  return result;
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

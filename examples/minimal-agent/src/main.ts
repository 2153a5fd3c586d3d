// The smallest agent: no tools of its own, only the three loop-control tools every agent has.
// Run: npm start -w examples/minimal-agent  (a real model when ANTHROPIC_API_KEY, OPENAI_API_KEY or
// OPENAI_BASE_URL is set, a scripted one otherwise).
import { pathToFileURL } from 'node:url';
import type { AgentResult, LLMProvider } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { optionalProviderFromEnvironment } from '@agentloop/providers';

/** What the scripted model answers when no real one is configured. */
export const script = [
  {
    text: 'The user greets me; a friendly reply is all that is needed.',
    toolCalls: [
      { name: 'converse', arguments: { message: 'Hello! I am a minimal agentloop agent. Ask me anything.' } },
    ],
  },
];

/** Runs one turn and prints what the agent says. */
export async function runMinimalAgent(
  provider: LLMProvider,
  input: string,
  print: (line: string) => void,
): Promise<AgentResult> {
  const agent = new DefaultAgent(provider, { systemPrompt: 'You are a friendly assistant. Keep answers short.' });
  agent.on('message-end', (event) => print(`(thinking aloud: ${event.text})`));
  const result = await agent.run(input);
  if (result.exit === 'converse') print(result.payload.message);
  else if (result.exit === 'task_completion') print(result.payload.result);
  else if (result.exit === 'ask_question') print(`? ${result.payload.question}`);
  else print(`(the run ended with ${result.exit}${result.error ? `: ${result.error.message}` : ''})`);
  return result;
}

async function main(): Promise<void> {
  const configured = await optionalProviderFromEnvironment();
  if (!configured)
    console.log('(no ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL set: running on a scripted model)');
  await runMinimalAgent(configured ?? new ScriptedProvider(script), process.argv[2] ?? 'Hi there!', console.log);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

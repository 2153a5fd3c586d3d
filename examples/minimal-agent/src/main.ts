// The smallest agent: no tools of its own, only the three loop-control tools every agent has.
// Run: npm start -w examples/minimal-agent [-- "your message"]   (README.md says which model it uses)
import { pathToFileURL } from 'node:url';
import type { AgentResult, LLMProvider } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { optionalProviderFromEnvironment } from '@agentloop/providers';
import { exitStatus, failureLine } from './failure-line.js';

/** What the scripted model answers when no real one is configured. */
export const script = [
  {
    text: 'The user greets me; a friendly reply is all that is needed.',
    toolCalls: [
      { name: 'converse', arguments: { message: 'Hello! I am a minimal agentloop agent. Ask me anything.' } },
    ],
  },
];

/** Runs one turn and prints the task, the model's text and what the agent says. */
export async function runMinimalAgent(
  provider: LLMProvider,
  input: string,
  print: (line: string) => void,
): Promise<AgentResult> {
  const agent = new DefaultAgent(provider, { systemPrompt: 'You are a friendly assistant. Keep answers short.' });
  print(`> ${input}`);
  agent.on('message-end', (event) => print(`(thinking aloud: ${event.text})`));
  const result = await agent.run(input);
  if (result.exit === 'converse') print(result.payload.message);
  else if (result.exit === 'task_completion') print(result.payload.result);
  else if (result.exit === 'ask_question') print(`? ${result.payload.question}`);
  return result;
}

async function main(): Promise<number> {
  const configured = await optionalProviderFromEnvironment();
  if (!configured) console.log('(no model provider in the environment: running on a scripted model; see README.md)');
  const result = await runMinimalAgent(
    configured ?? new ScriptedProvider(script),
    process.argv[2] ?? 'Hi there!',
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

// An agent with custom tools: web search (a class implementing Tool), file read and a calculator.
// Run: npm start -w examples/custom-tools [-- "your task"]   (README.md says which model it uses)
import { pathToFileURL } from 'node:url';
import type { AgentResult, LLMProvider } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { optionalProviderFromEnvironment } from '@agentloop/providers';
import { exitStatus, failureLine } from './failure-line.js';
import { offlineSearch } from './offline-search.js';
import type { SearchBackend } from './tools/index.js';
import { calculatorTool, fileReadTool, WebSearchTool } from './tools/index.js';

/** What the scripted model does when no real one is configured: search, compute, complete. */
export const script: ScriptStep[] = [
  {
    text: 'I will look up the release date.',
    toolCalls: [{ name: 'web_search', arguments: { query: 'Node.js 24 released' } }],
  },
  {
    text: 'Days in January to April, plus 6, gives the day of the year.',
    toolCalls: [{ name: 'calculator', arguments: { a: 120, b: 6, operation: 'add' } }],
  },
  {
    toolCalls: [
      { name: 'task_completion', arguments: { result: 'Node.js 24 was released on 6 May 2025 (day 126 of 2025).' } },
    ],
  },
];

/** Builds the agent with the three custom tools and runs one task, printing the task, the model's text and each step. */
export async function runCustomToolsAgent(
  provider: LLMProvider,
  input: string,
  print: (line: string) => void,
  search: SearchBackend = offlineSearch,
): Promise<AgentResult> {
  const agent = new DefaultAgent(provider, {
    systemPrompt: 'You are a research assistant. Use the tools to check facts.',
    maxIterations: 8,
  });
  agent.registerTool(new WebSearchTool(search)).registerTool(fileReadTool).registerTool(calculatorTool);
  print(`> ${input}`);
  agent.on('message-end', (event) => print(event.text));
  agent.on('tool-call', (event) => print(`→ ${event.name} ${JSON.stringify(event.arguments)}`));
  agent.on('tool-result', (event) => print(`  ✓ ${event.content.slice(0, 120)}`));
  agent.on('tool-result-error', (event) => print(`  ✗ ${event.content}`));
  const result = await agent.run(input);
  if (result.exit === 'task_completion') print(result.payload.result);
  else if (result.exit === 'converse') print(result.payload.message);
  else if (result.exit === 'ask_question') print(`? ${result.payload.question}`);
  return result;
}

async function main(): Promise<number> {
  const configured = await optionalProviderFromEnvironment();
  if (!configured) console.log('(no model provider in the environment: running on a scripted model; see README.md)');
  const result = await runCustomToolsAgent(
    configured ?? new ScriptedProvider(script),
    process.argv[2] ?? 'When was Node.js 24 released?',
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

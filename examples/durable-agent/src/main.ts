// A worker of a durable agent: it serves the agent session object `notes` to a Restate server, which
// runs each session's runs one at a time, journals their model and tool calls, and resumes a run on
// another worker when this one dies. README.md has the commands: start restate-server, start this
// worker, register it, call a session with curl.
// Node 20 lacks Promise.withResolvers, which the Restate SDK calls: this entry adds it (and does nothing
// on Node 22).
import '@agentloop/restate/node20';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DefaultAgent } from '@agentloop/core';
import { optionalProviderFromEnvironment } from '@agentloop/providers';
import { durableAgent } from '@agentloop/restate';
import * as restate from '@restatedev/restate-sdk';
import { DemoNotesModel } from './demo-model.js';
import { notesTools } from './notes-tools.js';

/** The Virtual Object `notes`: a session per key, whose agent keeps notes in `notesFile`. */
export async function notesAgent(notesFile: string) {
  const provider = (await optionalProviderFromEnvironment()) ?? new DemoNotesModel();
  return durableAgent({
    name: 'notes',
    createAgent: ({ sessionId }) =>
      new DefaultAgent(provider, {
        sessionId,
        systemPrompt: 'You keep the user’s notes: add what they tell you, read them back when asked.',
        tools: notesTools(notesFile),
      }),
    onEvent: (event, { sessionId }) => {
      if (event.type === 'tool-call') console.log(`[${sessionId}] → ${event.name} ${JSON.stringify(event.arguments)}`);
    },
  });
}

async function main(): Promise<void> {
  const notes = await notesAgent(process.env.NOTES_FILE ?? join(process.cwd(), 'notes.txt'));
  const port = await restate.serve({ services: [notes], port: Number(process.env.PORT ?? 9080) });
  console.log(`durable-agent worker listening on port ${port}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main().catch((error: unknown) => {
    console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}

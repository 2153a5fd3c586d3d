// A process for the crash test: an agent that resumes a session and runs turn after turn, until it is
// killed. It runs the built packages (as an app would), so `npm run build` first.
//
// Usage: node crash-child.mjs <jsonl|sqlite|postgres> <location> <session id>
// Prints `ready <turns>` once the session is open, `start <turn>` as a run starts and `committed <turn>`
// once its turn is saved (stdout to a pipe is synchronous on Linux: a printed line was written).
//
// Turn n asks the model's side to call `lookup` with k<n>, then to end with task_completion, or with
// ask_question on every third turn: five messages a turn (input, call, result, exit call, its result).

import { DefaultAgent, defineTool } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { JsonlSessionStore, PostgresSessionStore, SqliteSessionStore } from '../../dist/index.js';

const [kind, location, sessionId] = process.argv.slice(2);
const store =
  kind === 'sqlite'
    ? new SqliteSessionStore({ file: location })
    : kind === 'postgres'
      ? new PostgresSessionStore({ connectionString: location })
      : new JsonlSessionStore({ directory: location });

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a key up.',
  parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
  execute: async ({ key }) => `value of ${key}`,
});

const provider = new ScriptedProvider([], { chunkSize: 4 });
const agent = new DefaultAgent(provider, { tools: [lookup], session: { store, id: sessionId } });
const resumed = await agent.openSession();
let turn = resumed.info.turnCount;
process.stdout.write(`ready ${turn}\n`);

for (;;) {
  turn++;
  const exit =
    turn % 3 === 0
      ? { name: 'ask_question', arguments: { question: `Go on after ${turn}?`, suggestions: ['yes', 'no'] } }
      : { name: 'task_completion', arguments: { result: `done ${turn}` } };
  provider.push(
    { toolCalls: [{ name: 'lookup', arguments: { key: `k${turn}` }, id: `lookup-${turn}` }] },
    { text: `Turn ${turn} is done.`, toolCalls: [{ ...exit, id: `exit-${turn}` }] },
  );
  process.stdout.write(`start ${turn}\n`);
  const result = await agent.run(`task ${turn}`);
  if (result.exit === 'error') throw result.error;
  process.stdout.write(`committed ${turn}\n`);
}

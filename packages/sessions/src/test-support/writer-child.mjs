// A process for the concurrency tests: opens a session of a store and writes turns to it. It runs the built
// package, so `npm run build` first.
//
// Usage: node writer-child.mjs <jsonl|sqlite|postgres> <location> <session id> <turns> <messages a turn>
// Creates the session when it is missing and opens it, prints `open`, then waits for a line on stdin
// (`go`) before it writes the turns, each message the text `<session id> <turn>.<message>`, and prints
// `done`. A store error prints `error <code> <message>` and ends with status 2.

import { createInterface } from 'node:readline';
import { JsonlSessionStore, PostgresSessionStore, SqliteSessionStore } from '../../dist/index.js';

const [kind, location, sessionId, turnsText, messagesText] = process.argv.slice(2);
const store =
  kind === 'sqlite'
    ? new SqliteSessionStore({ file: location })
    : kind === 'postgres'
      ? new PostgresSessionStore({ connectionString: location })
      : new JsonlSessionStore({ directory: location });
const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

try {
  await store.create({ id: sessionId }).catch((error) => {
    if (error.code !== 'session_exists') throw error;
  });
  await store.open(sessionId);
  process.stdout.write('open\n');
  const lines = createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once('line', resolve));
  for (let turn = 1; turn <= Number(turnsText); turn++) {
    for (let message = 1; message <= Number(messagesText); message++) {
      await store.append(sessionId, {
        role: 'user',
        content: [{ type: 'text', text: `${sessionId} ${turn}.${message}` }],
      });
    }
    await store.commit(sessionId, { usage });
  }
  await store.close();
  process.stdout.write('done\n');
  process.exit(0);
} catch (error) {
  process.stdout.write(`error ${error.code} ${error.message}\n`);
  process.exit(2);
}

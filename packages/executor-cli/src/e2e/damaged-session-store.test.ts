// End-to-end tests of a session database that is not one: the built command, against a scripted
// OpenAI-compatible server on 127.0.0.1, run to its end as a child process. They import nothing from the
// sources, so they test the build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CliWorkspace } from '../test-support/cli-fixture.js';
import { runAgentloop } from '../test-support/run-agentloop.js';
import type { ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';

let workspace: CliWorkspace | undefined;
let server: ScriptedOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  workspace?.remove();
  server = undefined;
  workspace = undefined;
});

/** A workspace whose session database (in the user data directory under its HOME) is garbage. */
function workspaceWithGarbageDatabase(): { workspace: CliWorkspace; database: string } {
  workspace = new CliWorkspace();
  const folder = join(workspace.root, '.local', 'share', 'agentloop', 'sessions');
  mkdirSync(folder, { recursive: true });
  const database = join(folder, 'sessions.sqlite');
  writeFileSync(database, Buffer.alloc(8192, 0x5a));
  return { workspace, database };
}

describe('a damaged session database', () => {
  beforeAll(() => assertBuilt());

  it('agentloop run says in one line which file is damaged and what to do, with no stack trace', async () => {
    const { workspace, database } = workspaceWithGarbageDatabase();
    server = await startScriptedOpenAIServer([
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'never' } }] },
    ]);
    const run = await runAgentloop(workspace, ['run', '--base-url', server.url, '--model', 'test-model', 'Hello']);

    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `✗ ${database} is damaged: file is not a database (SQLITE_NOTADB). Move it aside (mv "${database}" "${database}.damaged") and a new one is started; the sessions in it cannot be read (store_damaged)\n`,
    );
    expect(server.requests).toHaveLength(0);
  }, 30_000);

  it('agentloop sessions says in one line which file is damaged and what to do', async () => {
    const { workspace, database } = workspaceWithGarbageDatabase();
    const listed = await runAgentloop(workspace, ['sessions']);

    expect(listed.status).toBe(1);
    expect(listed.stdout).toBe('');
    expect(listed.stderr).toMatch(new RegExp(`^✗ [^\\n]*${escapeRegExp(database)} is damaged: file is not a database`));
    expect(listed.stderr.trimEnd().split('\n')).toHaveLength(1);
  }, 30_000);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

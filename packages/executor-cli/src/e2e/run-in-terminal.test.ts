// End-to-end tests of `agentloop run` in a real terminal: the built command runs in tmux with one of its
// outputs redirected to a file, as `agentloop run "…" > notes.md` is used. They import nothing from the
// sources, so they test the build.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CliWorkspace } from '../test-support/cli-fixture.js';
import type { ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { TmuxSession, tmuxAvailable } from '../test-support/tmux-session.js';

const SOCKET = `agentloop-run-e2e-${process.pid}`;
let sessions = 0;
let tmux: TmuxSession | undefined;
let workspace: CliWorkspace | undefined;
let server: ScriptedOpenAIServer | undefined;

const RESULT = '# Notes\n\nThe notes say: **remember the milk**.';

/** Runs `agentloop run` in tmux with a shell redirection after it; resolves when it has ended. */
async function runInTerminal(redirection: string) {
  workspace = new CliWorkspace();
  server = await startScriptedOpenAIServer([
    { text: 'Reading the notes.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
    { toolCalls: [{ name: 'task_completion', arguments: { result: RESULT, artifacts: ['notes.txt'] } }] },
  ]);
  sessions += 1;
  tmux = new TmuxSession(`agentloop-run-${process.pid}-${sessions}`, `${SOCKET}-${sessions}`);
  const args = ['run', '--base-url', server.url, '--model', 'test-model', 'What do my notes say?'];
  tmux.start(`${workspace.commandLine(args)} ${redirection}`);
  const status = await tmux.exitStatus();
  return { status, screen: tmux.capture(), project: workspace.project };
}

describe.skipIf(!tmuxAvailable())('agentloop run in a terminal (tmux)', () => {
  beforeAll(() => assertBuilt());

  afterEach(async () => {
    tmux?.kill();
    await server?.close();
    workspace?.remove();
    tmux = undefined;
    server = undefined;
    workspace = undefined;
  });

  afterAll(() => {
    for (let session = 1; session <= sessions; session++) TmuxSession.killServer(`${SOCKET}-${session}`);
  });

  it('writes the result alone to a file with > and shows the progress and status lines on the terminal', async () => {
    const { status, screen, project } = await runInTerminal('> notes.md');
    expect(status).toBe(0);
    expect(readFileSync(join(project, 'notes.md'), 'utf8')).toBe(`${RESULT}\n`);
    expect(screen).toContain('Reading the notes.\n');
    // The call's time is the command's real wall time: on a loaded machine it may pass a second (`1.5 s`).
    expect(screen).toMatch(
      /✓ read_file\(path: "notes\.txt"\) (?:\d+ ms|\d+\.\d s|\d+ m \d\d s) → Remember the milk\.\n✔ Done\nArtifacts:\n {2}• notes\.txt\n\[exit 0\]/,
    );
    expect(screen).not.toContain('remember the milk**');
  }, 60_000);

  it('shows the result alone on the terminal when stderr goes to a file', async () => {
    const { status, screen, project } = await runInTerminal('2> status.log');
    expect(status).toBe(0);
    const log = readFileSync(join(project, 'status.log'), 'utf8');
    expect(log).toMatch(
      /^Reading the notes\.\n✓ read_file\(path: "notes\.txt"\) (?:\d+ ms|\d+\.\d s|\d+ m \d\d s) → .*\n✔ Done\nArtifacts:\n {2}• notes\.txt\n$/,
    );
    // The terminal gets the result, rendered as Markdown, and nothing else.
    expect(screen).toBe('# Notes\n\nThe notes say: remember the milk.\n[exit 0]');
  }, 60_000);
});

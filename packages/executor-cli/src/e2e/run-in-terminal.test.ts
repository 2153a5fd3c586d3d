// End-to-end tests of `agentloop run` in a real terminal: the built command runs in tmux with one of its
// outputs redirected to a file, as `agentloop run "…" > notes.md` is used. They import nothing from the
// sources, so they test the build.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../test-support/cli-fixture.js';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const terminal = useTerminalTest('run');

const RESULT = '# Notes\n\nThe notes say: **remember the milk**.';

/** Runs `agentloop run` in tmux with a shell redirection after it; resolves when it has ended. */
async function runInTerminal(redirection: string) {
  const workspace = terminal.workspace();
  const server = await terminal.server([
    { text: 'Reading the notes.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
    { toolCalls: [{ name: 'task_completion', arguments: { result: RESULT, artifacts: ['notes.txt'] } }] },
  ]);
  const args = ['run', '--base-url', server.url, '--model', 'test-model', 'What do my notes say?'];
  const tmux = terminal.startTmux(`${workspace.commandLine(args)} ${redirection}`);
  const status = await tmux.exitStatus();
  return { status, screen: tmux.capture(), project: workspace.project };
}

describe.skipIf(!tmuxAvailable())('agentloop run in a terminal (tmux)', () => {
  beforeAll(() => assertBuilt());

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

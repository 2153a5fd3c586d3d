// The hooks of useTerminalTest: what one test started is gone before the next test runs. The tests run
// in order and the second checks what the first left, since the hooks run between them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ScriptedOpenAIServer } from './scripted-openai-server.mjs';
import { useTerminalTest } from './terminal-test.js';
import { tmuxAvailable } from './tmux-session.js';

describe('useTerminalTest', () => {
  const terminal = useTerminalTest('terminal-test');
  let root = '';
  let server: ScriptedOpenAIServer | undefined;

  it('gives a test a workspace and a scripted server', async () => {
    const workspace = terminal.workspace();
    root = workspace.root;
    server = await terminal.server([{ text: 'hello' }]);
    expect(existsSync(workspace.project)).toBe(true);
    expect(server.remaining).toBe(1);
    expect((await fetch(`${server.url}/models`)).status).toBe(404);
  });

  it('removes the workspace and closes the server after the test', async () => {
    expect(root).not.toBe('');
    expect(existsSync(root)).toBe(false);
    await expect(fetch(`${server?.url}/models`)).rejects.toThrow('fetch failed');
  });
});

describe.skipIf(!tmuxAvailable())('useTerminalTest in tmux', () => {
  const terminal = useTerminalTest('terminal-test-tmux');
  const sockets: string[] = [];

  /** Whether a tmux server answers on the socket of the file's session `number`. */
  const serverRuns = (number: number) =>
    spawnSync('tmux', ['-L', `agentloop-e2e-terminal-test-tmux-${process.pid}-${number}`, 'list-sessions'], {
      stdio: 'ignore',
    }).status === 0;

  it('starts each tmux session on a server of its own', async () => {
    const first = terminal.startTmux('echo first');
    const second = terminal.startTmux('echo second');
    expect(await first.exitStatus()).toBe(0);
    expect(await second.exitStatus()).toBe(0);
    expect([first.name, second.name]).toEqual([
      `terminal-test-tmux-${process.pid}-1`,
      `terminal-test-tmux-${process.pid}-2`,
    ]);
    expect([serverRuns(1), serverRuns(2)]).toEqual([true, true]);
    sockets.push('1', '2');
  });

  it('ends the test’s tmux sessions and their servers after it', () => {
    expect(sockets).toEqual(['1', '2']);
    expect([serverRuns(1), serverRuns(2)]).toEqual([false, false]);
  });
});

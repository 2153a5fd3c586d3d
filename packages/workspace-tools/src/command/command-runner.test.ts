// run_command through a CommandRunner (an editor's terminal): the runner gets the process run_command
// built, sandbox included, and its outcome reads as a local one.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxAvailable } from '../test-support/sandbox-available.js';
import { call, createTempWorkspace, failure, type TempWorkspace } from '../test-support/temp-workspace.js';
import type { CommandRunner, CommandRunOutcome, CommandRunRequest } from './command-runner.js';
import { createRunCommandTool } from './run-command-tool.js';

const sandboxRuns = await sandboxAvailable();

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace('agentloop-runner-');
});
afterEach(() => ws.remove());

/** A runner that answers with `outcome` and keeps what it was asked. */
function scriptedRunner(outcome: Partial<CommandRunOutcome> = {}) {
  const requests: CommandRunRequest[] = [];
  const runner: CommandRunner = async (request) => {
    requests.push(request);
    return { ending: 'exited', exitCode: 0, exitSignal: null, output: '', durationMs: 1200, ...outcome };
  };
  return { runner, requests };
}

/** A runner that really runs the process, as a terminal would (no status pipe, output as text). */
const childRunner: CommandRunner = (request) =>
  new Promise((resolve) => {
    execFile(
      request.file,
      [...request.args],
      { cwd: request.cwd, env: request.env, timeout: request.timeoutMs, signal: request.signal },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        resolve({
          ending: 'exited',
          exitCode: typeof code === 'number' ? code : 0,
          exitSignal: null,
          output: stdout + stderr,
          durationMs: 5,
        });
      },
    );
  });

describe.skipIf(process.platform === 'win32')('run_command through a runner', () => {
  it('hands the runner the shell command line, the checked directory, the environment and the call', async () => {
    ws.write('src/a.ts', '');
    const { runner, requests } = scriptedRunner({ exitCode: 3, output: 'out\n' });
    const tool = createRunCommandTool({ sandbox: { mode: 'off' }, runner, shell: '/bin/sh', environment: { A: '1' } });
    expect(await call(tool, { command: 'echo out; exit 3', directory: 'src' }, ws.context())).toBe(
      'Exit code 3 (1.2 s).\nout\n',
    );
    expect(requests).toEqual([
      {
        file: '/bin/sh',
        args: ['-c', 'echo out; exit 3'],
        command: 'echo out; exit 3',
        cwd: realpathSync(join(ws.workspace, 'src')),
        env: { A: '1' },
        timeoutMs: 120_000,
        maxOutputBytes: 32 * 1024,
        signal: expect.any(AbortSignal),
        toolCallId: 'call-1',
      },
    ]);
  });

  it('caps what the runner kept as its own output, keeping the start and the end', async () => {
    const { runner } = scriptedRunner({ output: `${'a'.repeat(50)}${'z'.repeat(50)}` });
    const tool = createRunCommandTool({ sandbox: { mode: 'off' }, runner, maxOutputBytes: 20 });
    const result = await call(tool, { command: 'noisy' }, ws.context());
    expect(result.startsWith('Exit code 0 (1.2 s).\naaaaaaaaaa')).toBe(true);
    expect(result.endsWith('zzzzzzzzzz')).toBe(true);
    expect(result).toContain('80 bytes');
  });

  it("reports the runner's timeout and signal endings as run_command's own", async () => {
    const timedOut = createRunCommandTool({
      sandbox: { mode: 'off' },
      runner: scriptedRunner({ ending: 'timeout', exitCode: null, output: 'partial\n' }).runner,
    });
    expect(await call(timedOut, { command: 'sleep 1000', timeout_ms: 2000 }, ws.context())).toBe(
      'Timed out after 2.0 s: the command and every process it started were ended. If it needs longer, run it again with timeout_ms up to 600000. Output so far:\npartial\n',
    );
    const killed = createRunCommandTool({
      sandbox: { mode: 'off' },
      runner: scriptedRunner({ exitCode: null, exitSignal: 'SIGKILL' }).runner,
    });
    expect(await call(killed, { command: 'x' }, ws.context())).toBe('Ended by signal SIGKILL (1.2 s).\n(no output)');
  });

  it('turns a cancelled run into the cancel of the call', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    const runner: CommandRunner = async () => {
      controller.abort(reason);
      return { ending: 'cancelled', exitCode: null, exitSignal: 'SIGKILL', output: '', durationMs: 1 };
    };
    const tool = createRunCommandTool({ sandbox: { mode: 'off' }, runner });
    await expect(call(tool, { command: 'sleep 100' }, ws.context(controller.signal))).rejects.toBe(reason);
  });

  it('never asks the runner to run outside the workspace', async () => {
    const { runner, requests } = scriptedRunner();
    const tool = createRunCommandTool({ sandbox: { mode: 'off' }, runner });
    expect((await failure(call(tool, { command: 'ls', directory: ws.outside }, ws.context()))).code).toBe(
      'outside_workspace',
    );
    expect(requests).toEqual([]);
  });
});

describe.skipIf(!sandboxRuns)('run_command through a runner, in the sandbox', () => {
  it('asks the runner to run bubblewrap, without the status pipe it cannot offer', async () => {
    const { runner, requests } = scriptedRunner();
    await call(createRunCommandTool({ runner, shell: '/bin/sh' }), { command: 'make' }, ws.context());
    const [request] = requests;
    expect(request?.file).toBe('bwrap');
    expect(request?.args.slice(-4)).toEqual(['--', '/bin/sh', '-c', 'make']);
    expect(request?.args).not.toContain('--json-status-fd');
    expect(request?.args).toContain('--unshare-net');
  });

  it('confines the command wherever the runner starts it', async () => {
    const tool = createRunCommandTool({ runner: childRunner });
    const inside = await call(tool, { command: 'echo kept > inside.txt && echo done' }, ws.context());
    expect(inside).toMatch(/^Exit code 0 .*\ndone\n$/);
    expect(existsSync(join(ws.workspace, 'inside.txt'))).toBe(true);
    // Not under /tmp, /run or /var/tmp, which the sandbox replaces with empty ones.
    const outside = mkdtempSync(join(homedir(), '.agentloop-runner-outside-'));
    try {
      const result = await call(tool, { command: `touch ${join(outside, 'escaped.txt')}` }, ws.context());
      expect(result).toMatch(/^Exit code 1 .*Read-only file system/s);
      expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("tells bubblewrap's own failure from the command's", async () => {
    const runner = scriptedRunner({
      exitCode: 1,
      output: "bwrap: Can't mount proc on /newroot/proc: Operation not permitted\n",
    }).runner;
    const { code, message } = await failure(call(createRunCommandTool({ runner }), { command: 'true' }, ws.context()));
    expect(code).toBe('sandbox_unavailable');
    expect(message).toContain("bubblewrap could not set up the sandbox: bwrap: Can't mount proc on /newroot/proc");
    const failing = scriptedRunner({ exitCode: 1, output: 'make: *** No rule to make target\n' }).runner;
    expect(await call(createRunCommandTool({ runner: failing }), { command: 'make' }, ws.context())).toBe(
      'Exit code 1 (1.2 s).\nmake: *** No rule to make target\n',
    );
  });
});

// run_command without a sandbox (mode `off`): exit codes, output, the working directory, the environment,
// and that a timeout, a cancel or the command's own end leaves no process it started behind. The
// sandbox has its own tests (sandbox.test.ts).
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { leftWith, processesWith, stillAlive, uniqueSleep } from '../test-support/processes.js';
import { call, createTempWorkspace, failure, type TempWorkspace } from '../test-support/temp-workspace.js';
import { createRunCommandTool } from './run-command-tool.js';

let ws: TempWorkspace;
let leftovers: number[] = [];
beforeEach(() => {
  ws = createTempWorkspace();
});
afterEach(() => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  leftovers = [];
  ws.remove();
});

const tool = createRunCommandTool({ sandbox: { mode: 'off' } });
const run = (args: Record<string, unknown>, signal?: AbortSignal) => call(tool, args, ws.context(signal));

// Waits (polling /proc) until `count` processes with the marker run, so a test acts on a started tree.
async function started(marker: string, count: number): Promise<number[]> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const found = processesWith(`sleep ${marker}`);
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the command did not start ${count} processes`);
}

function printedPids(output: string): number[] {
  return [...output.matchAll(/pid (\d+)/g)].map((match) => Number(match[1]));
}

describe.skipIf(process.platform === 'win32')('run_command, sandbox off', () => {
  it('reports the exit code and the output of stdout and stderr together', async () => {
    expect(await run({ command: 'echo out; exit 3' })).toMatch(/^Exit code 3 \(\d+\.\d s\)\.\nout\n$/);
    expect(await run({ command: 'echo problem >&2' })).toMatch(/^Exit code 0 \(\d+\.\d s\)\.\nproblem\n$/);
    expect(await run({ command: 'true' })).toMatch(/^Exit code 0 \(\d+\.\d s\)\.\n\(no output\)$/);
  });

  it('names the signal that ended the command', async () => {
    expect(await run({ command: 'kill -SEGV $$' })).toMatch(/^Ended by signal SIGSEGV \(\d+\.\d s\)\.\n\(no output\)$/);
  });

  it('runs in the workspace, or in a directory inside it', async () => {
    ws.write('src/a.ts', '');
    expect(await run({ command: 'pwd' })).toContain(`\n${ws.workspace}\n`);
    expect(await run({ command: 'pwd', directory: 'src' })).toContain(`\n${realpathSync(join(ws.workspace, 'src'))}\n`);
  });

  it('refuses a working directory outside the workspace, missing, or a file', async () => {
    ws.write('a.txt', '');
    expect((await failure(run({ command: 'pwd', directory: '..' }))).code).toBe('outside_workspace');
    expect((await failure(run({ command: 'pwd', directory: '~' }))).code).toBe('outside_workspace');
    expect((await failure(run({ command: 'pwd', directory: 'nope' }))).code).toBe('not_found');
    expect((await failure(run({ command: 'pwd', directory: 'a.txt' }))).code).toBe('wrong_kind');
  });

  it('never gives a command the environment variables that hold secrets', async () => {
    process.env.AGENTLOOP_TEST_API_KEY = 'sk-test-never-shown';
    try {
      const result = await run({ command: 'echo "[$AGENTLOOP_TEST_API_KEY]"; env' });
      expect(result).toContain('\n[]\n');
      expect(result).not.toContain('sk-test-never-shown');
    } finally {
      delete process.env.AGENTLOOP_TEST_API_KEY;
    }
  });

  it("passes only the variables a command needs and those the user adds, whatever a secret's name", async () => {
    const added = {
      GITHUB_PAT: 'github_pat_never',
      MY_APP_PASS: 'hunter2',
      MY_APP_MODE: 'test',
      DATABASE_URL: 'postgres://u:pw@db/app',
    };
    Object.assign(process.env, added);
    try {
      const command = 'echo "[$GITHUB_PAT][$MY_APP_PASS][$MY_APP_MODE][$DATABASE_URL][$HOME]"';
      expect(await run({ command })).toContain(`\n[][][][][${process.env.HOME}]\n`);
      const passing = createRunCommandTool({ sandbox: { mode: 'off', passEnvironment: ['MY_APP_*', 'DATABASE_URL'] } });
      expect(await call(passing, { command }, ws.context())).toContain(
        `\n[][][test][postgres://u:pw@db/app][${process.env.HOME}]\n`,
      );
    } finally {
      for (const name of Object.keys(added)) delete process.env[name];
    }
  });

  it('uses an environment given in the options as it is', async () => {
    const given = createRunCommandTool({
      sandbox: { mode: 'off' },
      environment: { GREETING: 'hello', PATH: process.env.PATH },
    });
    expect(await call(given, { command: 'echo $GREETING' }, ws.context())).toContain('\nhello\n');
  });

  it('ends the command and every process it started at the timeout, output so far kept', async () => {
    const marker = uniqueSleep();
    const result = await run({
      command: `echo before; sleep ${marker} & echo pid $!; bash -c 'sleep ${marker} & echo pid $!; wait' & wait`,
      timeout_ms: 1000,
    });
    expect(result).toMatch(/^Timed out after 1\.0 s: the command and every process it started were ended\./);
    expect(result).toContain('run it again with timeout_ms up to 600000');
    expect(result).toContain('before\n');
    const pids = printedPids(result);
    expect(pids).toHaveLength(2);
    expect(await stillAlive(pids)).toEqual([]);
    expect(await leftWith(`sleep ${marker}`)).toEqual([]);
  });

  it('ends the whole process tree on cancel, with no orphan left', async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    const running = run(
      { command: `sleep ${marker} & (sleep ${marker} &); bash -c 'sleep ${marker}' & sleep ${marker}` },
      controller.signal,
    );
    const pids = await started(marker, 4);
    controller.abort(new Error('cancelled by the test'));
    await expect(running).rejects.toThrow('cancelled by the test');
    expect(await stillAlive(pids)).toEqual([]);
    expect(await leftWith(`sleep ${marker}`)).toEqual([]);
  });

  it('ends a loop that keeps starting detached processes', async () => {
    const marker = uniqueSleep();
    const result = await run({
      command: `for i in $(seq 1 50); do (sleep ${marker} &); done; while :; do (sleep ${marker} &); sleep 0.01; done`,
      timeout_ms: 1000,
    });
    expect(result).toMatch(/^Timed out after 1\.0 s/);
    expect(await leftWith(`sleep ${marker}`)).toEqual([]);
  });

  it('ends what a command left running in the background when it exits', async () => {
    const marker = uniqueSleep();
    const result = await run({ command: `sleep ${marker} & echo pid $!` });
    expect(result).toMatch(/^Exit code 0/);
    const pids = printedPids(result);
    expect(pids).toHaveLength(1);
    expect(await stillAlive(pids)).toEqual([]);
    expect(await leftWith(`sleep ${marker}`)).toEqual([]);
  });

  it('returns when a process that left its group keeps the output open', async () => {
    const marker = uniqueSleep();
    // The pause lets the escape happen before the command ends (and its group with it).
    const result = await run({ command: `(setsid sleep ${marker} &); sleep 0.5; echo started` });
    leftovers = processesWith(`sleep ${marker}`);
    expect(leftovers).toHaveLength(1);
    expect(result).toMatch(/^Exit code 0 \(\d+\.\d s\)\.\nstarted\n$/);
  });

  it('caps endless output, keeping its start and its end', async () => {
    const capped = createRunCommandTool({ sandbox: { mode: 'off' }, maxOutputBytes: 1000 });
    const result = await call(capped, { command: 'echo first; yes', timeout_ms: 1000 }, ws.context());
    expect(result).toMatch(/^Timed out after 1\.0 s/);
    expect(result).toMatch(/\nfirst\ny\ny\n[\s\S]*\n\[\.\.\. \d+ bytes of output cut here \.\.\.\]\n[\s\S]*y\n$/);
    expect(result.length).toBeLessThan(1300);
  });

  it('declares itself destructive and open-world without a sandbox', () => {
    expect(tool.annotations).toEqual({ readOnly: false, destructive: true, openWorld: true });
  });

  it('refuses options it cannot use', () => {
    expect(() => createRunCommandTool({ sandbox: { mode: 'none' as 'off' } })).toThrow(
      'Unknown sandbox mode "none"; use one of workspace-write, read-only, off.',
    );
    expect(() => createRunCommandTool({ sandbox: { writablePaths: ['cache'] } })).toThrow(
      'The sandbox\'s writable path "cache" is not absolute; give an absolute path.',
    );
    expect(() => createRunCommandTool({ sandbox: { passEnvironment: ['MY-VAR'] } })).toThrow(
      'The sandbox option passEnvironment has "MY-VAR", which is not an environment variable\'s name; give a name such as "JAVA_HOME", or a prefix ending in * such as "MY_APP_*".',
    );
  });
});

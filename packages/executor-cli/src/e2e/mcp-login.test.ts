// End-to-end tests of OAuth logins in the built `agentloop` command: a protected MCP server and its
// authorization server (the MCP package's OAuth fixture, started as a program on 127.0.0.1), `agentloop
// mcp login` with $BROWSER set to a script that follows the authorization URL back to the loopback, the
// token file it leaves, `mcp list`, `mcp logout`, and `agentloop run` with a server that needs a login.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENTLOOP_BIN, assertBuilt, type CliWorkspace } from '../test-support/cli-fixture.js';
import { runAgentloop } from '../test-support/run-agentloop.js';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const MCP_TEST_SUPPORT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../mcp/src/test-support');
const FIXTURE_MAIN = join(MCP_TEST_SUPPORT, 'oauth-fixture-main.mjs');
const FOLLOW_URL = join(MCP_TEST_SUPPORT, 'follow-url.mjs');

let fixture: ChildProcess | undefined;
const terminal = useTerminalTest('mcp-login');

/** Starts the OAuth fixture as a program and resolves with its MCP endpoint. */
async function startFixture(options: Record<string, unknown> = {}): Promise<string> {
  fixture = spawn(process.execPath, [FIXTURE_MAIN, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: fixture.stdout as NodeJS.ReadableStream });
  for await (const line of lines) return line;
  throw new Error('the OAuth fixture exited before it printed its URL');
}

function configureServer(at: CliWorkspace, url: string, extra = ''): void {
  at.appendUserConfig(`\n[mcp_servers.remote]\nurl = ${JSON.stringify(url)}\n${extra}`);
}

beforeAll(() => assertBuilt());

// Registered after useTerminalTest's, so it runs before them: the OAuth fixture ends first.
afterEach(() => {
  fixture?.stdin?.end();
  fixture = undefined;
});

describe('agentloop mcp login', () => {
  it('logs in through the browser ($BROWSER), keeps the tokens 0600, lists the login, and logs out', async () => {
    const url = await startFixture({ scopesSupported: ['notes:read'] });
    const workspace = terminal.workspace();
    configureServer(workspace, url);
    const browser = { BROWSER: FOLLOW_URL };

    const login = await runAgentloop(workspace, ['mcp', 'login', 'remote', '--scopes', 'notes:write'], browser);
    expect(login.stderr).toBe('');
    expect(login.status).toBe(0);
    const lines = login.stdout.trim().split('\n');
    expect(lines[0]).toBe('Opened your browser to log in to MCP server "remote". If it did not open, go to:');
    const authorizationUrl = new URL(lines[1]?.trim() ?? '');
    expect(authorizationUrl.searchParams.get('scope')).toBe('notes:read notes:write');
    expect(authorizationUrl.searchParams.get('resource')).toBe(url);
    expect(authorizationUrl.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(lines.at(-1)).toMatch(/^✓ Logged in to MCP server "remote" \(expires in 60 min\)\.$/);

    const tokenFile = join(workspace.root, '.local', 'share', 'agentloop', 'mcp', 'tokens.json');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(tokenFile)).mode & 0o777).toBe(0o700);
    const token = JSON.parse(readFileSync(tokenFile, 'utf8')).servers[url].tokens.access_token as string;
    expect(token).toMatch(/^at-/);
    expect(login.stdout).not.toContain(token);

    const list = await runAgentloop(workspace, ['mcp', 'list']);
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(
      / {2}remote {2}ready {2}streamable-http, 2 tools, oauth: logged in, expires in 60 min\n/,
    );
    expect(list.stdout).not.toContain(token);

    // A run calls the server with the token, and --verbose, which logs the calls, shows none of it.
    const model = await terminal.server([
      { toolCalls: [{ name: 'remote__whoami', arguments: {} }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'ok' } }] },
    ]);
    const connection = ['--provider', 'openai', '--base-url', model.url, '--model', 'test-model'];
    const run = await runAgentloop(workspace, ['run', '--verbose', ...connection, 'Who am I?']);
    expect(run.stdout).toBe('ok\n');
    expect(run.stderr).toContain('remote__whoami');
    expect(run.stderr).not.toContain(token);
    expect(model.requests[1].messages.at(-1)).toMatchObject({ role: 'tool' });
    expect(JSON.stringify(model.requests)).not.toContain(token);

    const logout = await runAgentloop(workspace, ['mcp', 'logout', 'remote']);
    expect(logout.stdout).toBe('Logged out of MCP server "remote": its tokens are forgotten.\n');
    const after = await runAgentloop(workspace, ['mcp', 'list']);
    expect(after.status).toBe(1);
    expect(after.stdout).toContain('  remote  failed  streamable-http, 0 tools, oauth: login needed\n');
    expect(after.stdout).toContain('    MCP server "remote" needs you to log in: run `agentloop mcp login remote`.\n');
  }, 60_000);

  it('prints the URL when no browser can be opened, and completes when the user goes there', async () => {
    const url = await startFixture();
    const workspace = terminal.workspace();
    configureServer(workspace, url);
    const child = spawn(process.execPath, [AGENTLOOP_BIN, 'mcp', 'login', 'remote'], {
      cwd: workspace.project,
      env: workspace.environment({ BROWSER: join(workspace.root, 'no-such-browser') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) => child.on('close', done));
    const lines: string[] = [];
    for await (const line of createInterface({ input: child.stdout })) {
      lines.push(line);
      // The user opens the address themselves, as the command asks.
      if (line.startsWith('  http')) {
        const approval = await fetch(line.trim(), { redirect: 'manual' });
        await fetch(approval.headers.get('location') ?? '');
      }
    }
    expect(await exited).toBe(0);
    expect(lines[0]).toBe('Open this address in a browser to log in to MCP server "remote":');
    expect(lines.at(-1)).toBe('✓ Logged in to MCP server "remote" (expires in 60 min).');
  }, 60_000);

  it('logs in with client credentials without a browser', async () => {
    const url = await startFixture({
      dynamicRegistration: false,
      clients: [{ client_id: 'svc', client_secret: 's3cret', redirect_uris: [] }],
    });
    const workspace = terminal.workspace();
    configureServer(
      workspace,
      url,
      'oauth = { grant = "client_credentials", client_id = "svc", client_secret_env_var = "SVC_SECRET" }\n',
    );
    const login = await runAgentloop(workspace, ['mcp', 'login', 'remote'], { SVC_SECRET: 's3cret' });
    expect(login.stdout).toBe('✓ Logged in to MCP server "remote" (expires in 60 min).\n');
    expect(login.status).toBe(0);
  }, 60_000);

  it('refuses a name that is not configured, saying which are', async () => {
    const workspace = terminal.workspace();
    configureServer(workspace, 'http://127.0.0.1:9/mcp');
    const login = await runAgentloop(workspace, ['mcp', 'login', 'tracker']);
    expect(login.status).toBe(2);
    expect(login.stderr).toBe(
      '✗ No MCP server "tracker" is configured (there are: remote); add it as [mcp_servers.tracker] with its url.\n',
    );
  }, 60_000);
});

describe('agentloop run with a server that needs a login', () => {
  it('says so in one line naming `agentloop mcp login NAME`, and runs the task', async () => {
    const url = await startFixture();
    const workspace = terminal.workspace();
    configureServer(workspace, url);
    const model = await terminal.server([{ toolCalls: [{ name: 'task_completion', arguments: { result: 'ok' } }] }]);
    const run = await runAgentloop(workspace, [
      'run',
      '--provider',
      'openai',
      '--base-url',
      model.url,
      '--model',
      'test-model',
      'Say ok',
    ]);
    expect(run.stdout).toBe('ok\n');
    expect(run.stderr.split('\n').filter((line) => line.includes('MCP server'))).toEqual([
      '⚠ MCP server "remote" needs you to log in: run `agentloop mcp login remote`; its tools are missing until then.',
    ]);
  }, 60_000);
});

describe.skipIf(!tmuxAvailable())('an interactive session with a server that needs a login (tmux)', () => {
  it('asks once to log in, logs in through the browser, and the server is ready', async () => {
    const url = await startFixture();
    const workspace = terminal.workspace();
    configureServer(workspace, url);
    const model = await terminal.server();
    const tmux = terminal.startTmux(
      workspace.commandLine(['--provider', 'openai', '--base-url', model.url, '--model', 'test-model'], {
        BROWSER: FOLLOW_URL,
      }),
    );
    await tmux.waitFor('Log in to MCP server "remote" now? [Y/n]');
    tmux.press('Enter');
    const screen = await tmux.waitFor(/✓ Logged in to MCP server "remote"; its 2 tools are ready\.\n[\s\S]*›\s*$/);
    expect(screen).toContain('needs you to log in: run `agentloop mcp login remote`');
    tmux.type('/mcp');
    tmux.press('Enter');
    // A server that needs a login is tried again on its backoff like any failed one: it may have been.
    await tmux.waitFor(
      /remote {2}ready {2}streamable-http, 2 tools, (?:restarted \d+×, )?oauth: logged in, expires in 60 min/,
    );
    tmux.type('/exit');
    tmux.press('Enter');
    expect(await tmux.exitStatus()).toBe(0);
  }, 60_000);

  it('ends a login that waits for the browser with Ctrl-C, and the session goes on', async () => {
    const url = await startFixture();
    const workspace = terminal.workspace();
    configureServer(workspace, url);
    const model = await terminal.server();
    const tmux = terminal.startTmux(
      workspace.commandLine(['--provider', 'openai', '--base-url', model.url, '--model', 'test-model'], {
        BROWSER: join(workspace.root, 'no-such-browser'),
      }),
    );
    await tmux.waitFor('Log in to MCP server "remote" now? [Y/n]');
    tmux.press('Enter');
    await tmux.waitFor('Waiting for the browser to come back (Ctrl-C stops)');
    tmux.press('C-c');
    await tmux.waitFor(/✗ MCP server "remote": the login did not complete: it was cancelled\.\n[\s\S]*›\s*$/);
    tmux.type('/exit');
    tmux.press('Enter');
    expect(await tmux.exitStatus()).toBe(0);
  }, 60_000);
});

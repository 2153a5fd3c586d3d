// `agentloop serve`, the built command: its options and `[serve]` table, the address it prints, a clean
// stop on Ctrl-C, and the page in headless Chromium driving a real agent (the workspace tools, the
// approval mode, the session store) against the scripted OpenAI-compatible server.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, screenshot } from '../test-support/chromium.js';
import { AGENTLOOP_BIN, assertBuilt, CliWorkspace } from '../test-support/cli-fixture.js';
import type { ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';

let workspace: CliWorkspace | undefined;
let model: ScriptedOpenAIServer | undefined;
let command: ServeProcess | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  await command?.stop();
  await model?.close();
  workspace?.remove();
  command = undefined;
  model = undefined;
  workspace = undefined;
});

/** A running `agentloop serve`, with what it printed. */
interface ServeProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the page's address once the command printed it; rejects if it exits first. */
  address: Promise<string>;
  /** Resolves with the exit status. */
  exited: Promise<number | null>;
  /** Sends SIGINT (as Ctrl-C does) unless it ended, and resolves with the exit status. */
  stop(): Promise<number | null>;
}

function serve(args: string[], environment: Record<string, string> = {}): ServeProcess {
  const at = workspace as CliWorkspace;
  const child = spawn(process.execPath, [AGENTLOOP_BIN, 'serve', ...args], {
    cwd: at.project,
    env: at.environment(environment),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
  const address = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = /^(http:\/\/\S+)$/m.exec(stdout)?.[1];
      if (url) resolve(url);
    });
    void exited.then((status) => reject(new Error(`agentloop serve exited with ${status}:\n${stderr}`)));
  });
  address.catch(() => undefined);
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    address,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

describe('agentloop serve', () => {
  it('prints the address with its token in the fragment, serves the page and the API, and stops on Ctrl-C', async () => {
    workspace = new CliWorkspace();
    model = await startScriptedOpenAIServer([]);
    command = serve(['--port', '0', '--base-url', model.url, '--model', 'test-model']);
    const address = await command.address;
    const url = new URL(address);
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(url.pathname).toBe('/');
    expect(url.search).toBe('');
    const token = /^#token=([0-9A-Za-z_-]{16,})$/.exec(url.hash)?.[1];
    expect(token).toBeDefined();

    const page = await fetch(`${url.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('<title>agentloop</title>');
    expect((await fetch(`${url.origin}/api/sessions`)).status).toBe(401);
    const sessions = await fetch(`${url.origin}/api/sessions`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await sessions.json()).toEqual({ sessions: [] });

    expect(await command.stop()).toBe(0);
    expect(command.stderr()).toContain('agentloop serve: stopping: the runs are cancelled and the sessions saved.');
  });

  it('takes the port and the token from [serve] and its token_env_var', async () => {
    workspace = new CliWorkspace();
    const config = join(workspace.configHome, 'agentloop', 'config.toml');
    mkdirSync(join(workspace.configHome, 'agentloop'), { recursive: true });
    writeFileSync(config, '[sandbox]\nmode = "off"\n[serve]\nport = 0\ntoken_env_var = "MY_SERVE_TOKEN"\n');
    model = await startScriptedOpenAIServer([]);
    command = serve(['--base-url', model.url, '--model', 'test-model'], {
      MY_SERVE_TOKEN: 'the-configured-token-1234',
    });
    const url = new URL(await command.address);
    expect(url.hash).toBe('#token=the-configured-token-1234');
    const sessions = await fetch(`${url.origin}/api/sessions`, {
      headers: { Authorization: 'Bearer the-configured-token-1234' },
    });
    expect(sessions.status).toBe(200);
  });

  it('cancels a running run on Ctrl-C, saves its session and exits with 0', async () => {
    workspace = new CliWorkspace();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    model = await startScriptedOpenAIServer([{ text: 'One, two, three, four.', hold: { afterChars: 5, until: held } }]);
    command = serve(['--port', '0', '--base-url', model.url, '--model', 'test-model']);
    const url = new URL(await command.address);
    const token = url.hash.slice('#token='.length);
    const response = await fetch(`${url.origin}/api/agui`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        threadId: 'counting',
        runId: 'run-1',
        messages: [{ id: 'm1', role: 'user', content: 'Count to ten' }],
        tools: [],
        context: [],
        state: {},
        forwardedProps: {},
      }),
    });
    expect(response.status).toBe(200);
    // Read until the model's first words arrive: the run is going, its stream held by the model server.
    const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    while (!received.includes('TEXT_MESSAGE_CONTENT')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value;
    }
    expect(received).toContain('"delta":"One, t"');

    expect(await command.stop()).toBe(0);
    release();
    await reader.cancel().catch(() => undefined);
    // The session is in the store, for agentloop --resume or the next agentloop serve.
    const listed = spawn(process.execPath, [AGENTLOOP_BIN, 'sessions'], {
      cwd: workspace.project,
      env: workspace.environment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let sessions = '';
    listed.stdout.on('data', (chunk) => (sessions += chunk));
    await new Promise((resolve) => listed.on('close', resolve));
    expect(sessions).toContain('Count to ten');
  });

  it('keeps sessions in a temporary store until it stops, with [sessions] store = "off"', async () => {
    workspace = new CliWorkspace();
    mkdirSync(join(workspace.configHome, 'agentloop'), { recursive: true });
    writeFileSync(
      join(workspace.configHome, 'agentloop', 'config.toml'),
      '[sandbox]\nmode = "off"\n[sessions]\nstore = "off"\n',
    );
    model = await startScriptedOpenAIServer([
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Done.' } }] },
    ]);
    command = serve(['--port', '0', '--base-url', model.url, '--model', 'test-model']);
    const url = new URL(await command.address);
    const headers = { Authorization: `Bearer ${url.hash.slice('#token='.length)}`, 'Content-Type': 'application/json' };
    const run = await fetch(`${url.origin}/api/agui`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        threadId: 'unsaved',
        runId: 'run-1',
        messages: [{ id: 'm1', role: 'user', content: 'Finish' }],
        tools: [],
        context: [],
        state: {},
        forwardedProps: {},
      }),
    });
    expect(await run.text()).toContain('"type":"RUN_FINISHED"');
    const listed = (await (await fetch(`${url.origin}/api/sessions`, { headers })).json()) as {
      sessions: { id: string; title: string }[];
    };
    expect(listed.sessions.map((session) => [session.id, session.title])).toEqual([['unsaved', 'Finish']]);
    expect(command.stderr()).toContain(
      'agentloop serve: sessions are kept until the server stops, not saved ([sessions] store = "off").',
    );
    expect(await command.stop()).toBe(0);
  });

  it('refuses another address than this machine without a token you chose, with status 2', async () => {
    workspace = new CliWorkspace();
    command = serve(['--host', '0.0.0.0', '--model', 'test-model', '--base-url', 'http://127.0.0.1:9/v1']);
    expect(await command.exited).toBe(2);
    expect(command.stdout()).toBe('');
    expect(command.stderr()).toBe(
      '✗ Listening on 0.0.0.0 lets other machines reach the agent, so it needs a token you chose: set [serve] token_env_var to an environment variable that holds one (or give --token), or leave --host out to serve this machine only.\n',
    );
  });

  it('refuses a token shorter than 16 characters, with status 2', async () => {
    workspace = new CliWorkspace();
    command = serve(['--token', 'short', '--model', 'test-model', '--base-url', 'http://127.0.0.1:9/v1']);
    expect(await command.exited).toBe(2);
    expect(command.stderr()).toMatch(/The token from --token is 5 characters long: give at least 16/);
  });
});

describe.skipIf(!chromiumAvailable())('the page of agentloop serve in Chromium', () => {
  let browser: Browser | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('runs a task with the workspace tools: the edit waits for approval, shows its diff, and is written once allowed', async () => {
    workspace = new CliWorkspace();
    model = await startScriptedOpenAIServer([
      {
        text: 'I will update the note.',
        toolCalls: [
          { name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'the milk', new_text: 'the oat milk' } },
        ],
      },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'The note says oat milk now.' } }] },
      { toolCalls: [{ name: 'converse', arguments: { message: 'You are welcome.' } }] },
    ]);
    command = serve(['--port', '0', '--approval', 'ask', '--base-url', model.url, '--model', 'test-model']);
    const address = await command.address;
    const context = await (browser as Browser).newContext({ viewport: { width: 1100, height: 700 } });
    try {
      const page = await context.newPage();
      await page.goto(address);
      await page.locator('#input').fill('Make it oat milk');
      await page.locator('#input').press('Enter');
      const approval = page.locator('.approval');
      await approval.waitFor();
      expect(await approval.locator('h3').textContent()).toBe('Edit notes.txt');
      expect(await page.locator('.diff .removed').allTextContents()).toEqual(['-the milk']);
      expect(await page.locator('.diff .added').allTextContents()).toEqual(['+the oat milk']);
      // Nothing is written before the answer.
      expect(readFileSync(join(workspace.project, 'notes.txt'), 'utf8')).toBe('Remember the milk.\n');
      await screenshot(page, 'serve-approval');

      await approval.locator('button', { hasText: 'Allow once' }).click();
      await page.locator('.entry.assistant', { hasText: 'The note says oat milk now.' }).waitFor();
      expect(readFileSync(join(workspace.project, 'notes.txt'), 'utf8')).toBe('Remember the oat milk.\n');
      await page.locator('#status', { hasText: 'Idle' }).waitFor();
      await page.locator('#sessions button', { hasText: 'Make it oat milk' }).waitFor();
      await screenshot(page, 'serve-done');

      // The session's next run goes on with the same agent and the whole conversation.
      await page.locator('#input').fill('Thanks');
      await page.locator('#input').press('Enter');
      await page.locator('.entry.assistant', { hasText: 'You are welcome.' }).waitFor();
      const messages = (model as ScriptedOpenAIServer).requests[2].messages as { role: string; content: unknown }[];
      expect(messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
        'Make it oat milk',
        'Thanks',
      ]);
      expect(await page.locator('#sessions button').count()).toBe(1);
    } finally {
      await context.close();
    }
    expect(await command.stop()).toBe(0);
  }, 60_000);
});

// End-to-end tests of `agentloop run`: the built command, spawned against a scripted OpenAI-compatible
// server on 127.0.0.1. They import nothing from the sources, so they test the build.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CliWorkspaceOptions } from '../test-support/cli-fixture.js';
import { AGENTLOOP_BIN, assertBuilt, CliWorkspace, DISPOSE_PLUGIN } from '../test-support/cli-fixture.js';
import type { ScriptEntry, ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';

let workspace: CliWorkspace | undefined;
let server: ScriptedOpenAIServer | undefined;

interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `agentloop` to its end; `stdin` is piped in when given; `interruptWhen` sends `signal` (SIGINT by
 * default) when stderr matches.
 */
function agentloop(
  args: string[],
  options: {
    stdin?: string;
    interruptWhen?: RegExp;
    signal?: NodeJS.Signals;
    environment?: Record<string, string>;
    workspace?: CliWorkspace;
  } = {},
): Promise<CliRun> {
  const at = options.workspace ?? (workspace as CliWorkspace);
  const child = spawn(process.execPath, [AGENTLOOP_BIN, ...args], {
    cwd: at.project,
    env: at.environment(options.environment),
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
    if (options.interruptWhen && !interrupted && options.interruptWhen.test(stderr)) {
      interrupted = true;
      child.kill(options.signal ?? 'SIGINT');
    }
  });
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function setUp(script: ScriptEntry[], workspaceOptions: CliWorkspaceOptions = {}) {
  workspace = new CliWorkspace(workspaceOptions);
  server = await startScriptedOpenAIServer(script);
  return { server, connection: ['--base-url', server.url, '--model', 'test-model'] };
}

describe('agentloop run', () => {
  beforeAll(() => assertBuilt());

  afterEach(async () => {
    await server?.close();
    workspace?.remove();
    server = undefined;
    workspace = undefined;
  });

  it('prints the typed events as JSON lines with --json, event by event', async () => {
    const { connection } = await setUp([
      {
        text: 'Reading.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }],
        usage: { prompt_tokens: 50, completion_tokens: 5 },
      },
      {
        toolCalls: [{ name: 'task_completion', arguments: { result: 'Milk.', artifacts: ['notes.txt'] } }],
        usage: { prompt_tokens: 70, completion_tokens: 7 },
      },
    ]);
    const run = await agentloop(['run', '--json', ...connection, 'What do my notes say?']);
    expect(run.status).toBe(0);
    const stamped = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const runId = stamped[0].runId;
    // Every event carries its id (stable across a durable run's replays), which starts with the run's id.
    for (const event of stamped) expect(event.eventId).toMatch(new RegExp(`^${runId}/.+/${event.type}/\\d+$`));
    const events = stamped.map(({ eventId: _eventId, ...event }) => event);
    const usage = (inputTokens: number, outputTokens: number) => ({
      inputTokens,
      outputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
    expect(events).toEqual([
      { type: 'loop-start', runId, input: 'What do my notes say?' },
      { type: 'loop-iteration', runId, iteration: 1 },
      { type: 'message-start', iteration: 1 },
      { type: 'message-content', iteration: 1, text: 'Readin' },
      { type: 'message-content', iteration: 1, text: 'g.' },
      { type: 'message-end', iteration: 1, text: 'Reading.' },
      { type: 'tool-call-start', iteration: 1, toolCallId: 'call_1_1', name: 'read_file' },
      {
        type: 'usage',
        iteration: 1,
        usage: usage(50, 5),
        total: usage(50, 5),
        sessionTotal: usage(50, 5),
        context: { usedTokens: 55, windowTokens: expect.any(Number), fraction: expect.any(Number) },
        finishReason: 'tool-calls',
      },
      { type: 'tool-call', iteration: 1, toolCallId: 'call_1_1', name: 'read_file', arguments: { path: 'notes.txt' } },
      {
        type: 'tool-result',
        iteration: 1,
        toolCallId: 'call_1_1',
        name: 'read_file',
        content: 'Remember the milk.\n',
        value: 'Remember the milk.\n',
        durationMs: expect.any(Number),
      },
      { type: 'loop-iteration', runId, iteration: 2 },
      { type: 'tool-call-start', iteration: 2, toolCallId: 'call_2_1', name: 'task_completion' },
      {
        type: 'usage',
        iteration: 2,
        usage: usage(70, 7),
        total: usage(120, 12),
        sessionTotal: usage(120, 12),
        context: { usedTokens: 77, windowTokens: expect.any(Number), fraction: expect.any(Number) },
        finishReason: 'tool-calls',
      },
      {
        type: 'tool-call',
        iteration: 2,
        toolCallId: 'call_2_1',
        name: 'task_completion',
        arguments: { result: 'Milk.', artifacts: ['notes.txt'] },
      },
      {
        type: 'tool-result',
        iteration: 2,
        toolCallId: 'call_2_1',
        name: 'task_completion',
        content: expect.any(String),
        value: expect.any(String),
        durationMs: expect.any(Number),
      },
      { type: 'task-complete', iteration: 2, result: 'Milk.', artifacts: ['notes.txt'] },
      {
        type: 'loop-end',
        runId,
        result: expect.objectContaining({
          exit: 'task_completion',
          payload: { result: 'Milk.', artifacts: ['notes.txt'] },
          iterations: 2,
          usage: usage(120, 12),
        }),
      },
    ]);
    expect(run.stderr).toBe('');
  }, 30_000);

  it('serialises a failed run in --json with its error code and message, and exits with 1', async () => {
    const { server, connection } = await setUp([{ status: 401, errorMessage: 'Incorrect API key provided' }]);
    const run = await agentloop(['run', '--json', ...connection, 'hi']);
    expect(run.status).toBe(1);
    const end = JSON.parse(run.stdout.trimEnd().split('\n').at(-1) as string);
    expect(end).toMatchObject({
      type: 'loop-end',
      result: {
        exit: 'error',
        error: {
          code: 'authentication',
          statusCode: 401,
          message: expect.stringContaining('Incorrect API key provided'),
        },
      },
    });
    // No key was sent to the local server: the line says how to give one, not to check one.
    expect(run.stderr).toBe(
      `The server at ${server.url} wants an API key (HTTP 401): set OPENAI_API_KEY, or api_key in [providers.openai] of the user configuration.\n`,
    );
  }, 30_000);

  it('prints the result alone on stdout and the progress and status lines on stderr, exiting with 0', async () => {
    const { connection } = await setUp([
      { text: 'Looking.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      {
        toolCalls: [
          { name: 'task_completion', arguments: { result: '# Notes\n\nAll **done**.', artifacts: ['notes.txt'] } },
        ],
      },
    ]);
    const run = await agentloop(['run', ...connection, 'finish']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('# Notes\n\nAll **done**.\n');
    expect(run.stderr).toMatch(
      /^Looking\.\n✓ read_file\(path: "notes\.txt"\) \d+ ms → Remember the milk\.\n✔ Done\nArtifacts:\n {2}• notes\.txt\n$/,
    );
  }, 30_000);

  describe('where the sandbox cannot run (no bwrap in PATH)', () => {
    const script: ScriptEntry[] = [
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Tried.' } }] },
    ];
    // An allow rule for the command, and a PATH without bubblewrap, whatever this machine has.
    async function setUpWithoutSandbox() {
      const { connection } = await setUp(script, { sandboxWhereMissing: 'as-is' });
      const at = workspace as CliWorkspace;
      mkdirSync(join(at.configHome, 'agentloop'), { recursive: true });
      writeFileSync(
        join(at.configHome, 'agentloop', 'config.toml'),
        '[[approval.rules]]\ntool = "run_command"\ncommand = "echo *"\naction = "allow"\n',
      );
      const emptyPath = join(at.root, 'empty-path');
      mkdirSync(emptyPath);
      return { connection, environment: { PATH: emptyPath } };
    }
    const toolResult = () =>
      (server as ScriptedOpenAIServer).requests[1]?.messages.find(
        (message: { role: string }) => message.role === 'tool',
      )?.content;

    it('says that every command is refused though a rule allows it, and what would run it', async () => {
      const { connection, environment } = await setUpWithoutSandbox();
      const run = await agentloop(['run', ...connection, 'say hi'], { environment });
      expect(run.status).toBe(0);
      expect(run.stdout).toBe('Tried.\n');
      const remedy =
        'To run them: install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap); or --sandbox off (or mode = "off" under [sandbox]), so that your allow rules decide, and the commands they allow run with your rights; or --approval yolo, which runs every command with your rights.';
      expect(run.stderr).toContain(
        `⚠ No sandbox: bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt-get install bubblewrap); every command needs approval, whatever the rules allow, and agentloop run asks no one, so run_command refuses them all. ${remedy}\n`,
      );
      expect(run.stderr).toContain(
        `⊘ run_command was refused: without a sandbox every command needs approval, whatever the rules allow, and agentloop run asks no one. ${remedy}\n`,
      );
      expect(run.stderr).not.toContain('asks before every command');
      expect(run.stderr).not.toContain('or an allow rule');
      expect(toolResult()).toContain('no one is here to approve calls');
    }, 30_000);

    it('runs a command the rule allows with --sandbox off, as that line says', async () => {
      const { connection, environment } = await setUpWithoutSandbox();
      const run = await agentloop(['run', ...connection, '--sandbox', 'off', 'say hi'], { environment });
      expect(run.status).toBe(0);
      expect(run.stderr).not.toContain('No sandbox');
      expect(toolResult()).toMatch(/^Exit code 0 .*\nhi\n$/);
    }, 30_000);
  });

  it('reads the task from stdin', async () => {
    const { server, connection } = await setUp([
      { toolCalls: [{ name: 'converse', arguments: { message: 'Hi there.' } }] },
    ]);
    const run = await agentloop(['run', ...connection], { stdin: 'say hello\n' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('Hi there.\n');
    expect(server.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'say hello' });
  }, 30_000);

  it('reads the task from stdin with "-"', async () => {
    const { server, connection } = await setUp([
      { toolCalls: [{ name: 'converse', arguments: { message: 'It failed.' } }] },
    ]);
    const run = await agentloop(['run', ...connection, '-'], { stdin: 'explain this log\nERROR x\n' });
    expect(run.status).toBe(0);
    expect(server.requests[0].messages.at(-1)).toEqual({ role: 'user', content: 'explain this log\nERROR x' });
  }, 30_000);

  it('ends quietly with its own exit status when the reader of --json goes away (| head -1)', async () => {
    const { connection } = await setUp(
      [
        { toolCalls: [{ name: 'slow_tool', arguments: { seconds: 0.5 } }] },
        { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
      ],
      { slowTool: true },
    );
    const at = workspace as CliWorkspace;
    const child = spawn(process.execPath, [AGENTLOOP_BIN, 'run', '--json', ...connection, 'wait'], {
      cwd: at.project,
      env: at.environment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // Like `head -1`: read the first chunk, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const status = await new Promise((resolve) => child.on('close', (code) => resolve(code)));
    expect(stderr).toBe('');
    expect(status).toBe(0);
  }, 30_000);

  it('reads OPENAI_MODEL for the server at OPENAI_BASE_URL, as the library does, and asks for one without it', async () => {
    const { server } = await setUp([{ toolCalls: [{ name: 'converse', arguments: { message: 'Hi.' } }] }]);
    const environment = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.url };
    const run = await agentloop(['run', 'hi'], { environment: { ...environment, OPENAI_MODEL: 'my-model' } });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(server.requests[0].model).toBe('my-model');
    const without = await agentloop(['run', 'hi'], { environment: { OPENAI_BASE_URL: server.url } });
    expect(without.status).toBe(2);
    expect(without.stderr).toBe(
      `✗ No model is set for the server at ${server.url}: name one with --model (e.g. --model llama3.2), model = "..." in the configuration, or OPENAI_MODEL (the server lists its models at ${server.url}/models).\n`,
    );
    expect(server.requests).toHaveLength(1);
  }, 30_000);

  it('refuses a project configuration that points a provider elsewhere without its own key', async () => {
    const { connection } = await setUp([]);
    const at = workspace as CliWorkspace;
    mkdirSync(join(at.project, '.agentloop'));
    const file = join(at.project, '.agentloop', 'config.toml');
    writeFileSync(file, '[providers.openai]\nbase_url = "http://127.0.0.1:9/v1"\n');
    const run = await agentloop(['run', ...connection, 'hi'], { environment: { OPENAI_API_KEY: 'sk-test' } });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^✗ Invalid configuration in ${file}: key "providers\\.openai\\.base_url" `));
  }, 30_000);

  it('exits with 3 and prints the question when the agent asks one', async () => {
    const { connection } = await setUp([
      { toolCalls: [{ name: 'ask_question', arguments: { question: 'Which one?', suggestions: ['a', 'b'] } }] },
    ]);
    const run = await agentloop(['run', ...connection, 'pick']);
    expect(run.status).toBe(3);
    expect(run.stdout).toBe('? Which one?\n  1. a\n  2. b\n');
  }, 30_000);

  it('exits with 4 when the iteration limit is reached, saying how to go on', async () => {
    const { connection } = await setUp([{ toolCalls: [{ name: 'list_files', arguments: {} }] }]);
    const run = await agentloop(['run', '--max-iterations', '1', ...connection, 'loop']);
    expect(run.status).toBe(4);
    expect(run.stderr).toContain(
      '⚠ Stopped after 1 model calls: the iteration limit was reached before the task was done.\nRun it again with a higher --max-iterations',
    );
  }, 30_000);

  it('exits with 130 when interrupted, after cancelling the running tool', async () => {
    const { connection } = await setUp(
      [{ text: 'Waiting.', toolCalls: [{ name: 'slow_tool', arguments: { seconds: 60 } }] }],
      { slowTool: true },
    );
    const run = await agentloop(['run', ...connection, 'wait'], { interruptWhen: /Waiting\.\n/ });
    expect(run.status).toBe(130);
    expect(run.stderr).toMatch(/✗ slow_tool\(seconds: 60\) \d+ ms → error: .*\nCancelled\.\n$/);
  }, 30_000);

  it("runs the plugins' dispose hooks once when the run completes", async () => {
    const { connection } = await setUp([{ toolCalls: [{ name: 'task_completion', arguments: { result: 'Done.' } }] }], {
      plugins: { 'dispose-plugin.mjs': DISPOSE_PLUGIN },
    });
    const run = await agentloop(['run', ...connection, 'finish']);
    expect(run.status).toBe(0);
    expect(workspace?.disposals()).toBe(1);
  }, 30_000);

  it("runs the plugins' dispose hooks once when interrupted with Ctrl-C", async () => {
    const { connection } = await setUp(
      [{ text: 'Waiting.', toolCalls: [{ name: 'slow_tool', arguments: { seconds: 60 } }] }],
      { slowTool: true, plugins: { 'dispose-plugin.mjs': DISPOSE_PLUGIN } },
    );
    const run = await agentloop(['run', ...connection, 'wait'], { interruptWhen: /Waiting\.\n/ });
    expect(run.status).toBe(130);
    expect(workspace?.disposals()).toBe(1);
  }, 30_000);

  it("on SIGTERM cancels the running tool, runs the plugins' dispose hooks once and exits with 143", async () => {
    const { connection } = await setUp(
      [{ text: 'Waiting.', toolCalls: [{ name: 'slow_tool', arguments: { seconds: 60 } }] }],
      { slowTool: true, plugins: { 'dispose-plugin.mjs': DISPOSE_PLUGIN } },
    );
    const run = await agentloop(['run', ...connection, 'wait'], { interruptWhen: /Waiting\.\n/, signal: 'SIGTERM' });
    expect(run.status).toBe(143);
    expect(workspace?.disposals()).toBe(1);
  }, 30_000);

  it('fails at start with exit 2 naming the file, the key and what is wrong in an invalid configuration', async () => {
    const { connection } = await setUp([]);
    const file = join((workspace as CliWorkspace).configHome, 'agentloop', 'config.toml');
    mkdirSync(join((workspace as CliWorkspace).configHome, 'agentloop'), { recursive: true });
    writeFileSync(file, 'max_iterations = "many"\n');
    const run = await agentloop(['run', ...connection, 'hi']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `✗ Invalid configuration in ${file}: key "max_iterations" must be a whole number (got "many")\n`,
    );
  }, 30_000);

  it('says what to set when no provider is configured, with exit 2 and a JSON line for scripts', async () => {
    workspace = new CliWorkspace();
    const run = await agentloop(['run', '--json', 'hi']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^✗ No model provider is configured\. Set one of:\n {2}ANTHROPIC_API_KEY=/);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: 'startup-error', error: { code: 'no_provider' } });
  }, 30_000);

  it('refuses a base URL with a password, never showing it, and says how to pass a credential', async () => {
    workspace = new CliWorkspace();
    // A space, a quote, a backslash, no scheme: each got past the redaction pattern once.
    for (const url of [
      'http://user:password@127.0.0.1:9/v1',
      'http://admin:hunter2 secret@127.0.0.1:9/v1',
      'http://admin:hunter2"secret@127.0.0.1:9/v1',
      'http://admin:hunter2\\secret@127.0.0.1:9/v1',
      '//admin:hunter2secret@127.0.0.1:9/v1',
    ]) {
      for (const args of [
        ['run', '--base-url', url, '--model', 'm', 'hi'],
        ['run', '--json', '--verbose', '--base-url', url, '--model', 'm', 'hi'],
      ]) {
        const run = await agentloop(args);
        expect(run.status).toBe(2);
        expect(run.stderr).toMatch(
          /^✗ The base URL (http:\/\/127\.0\.0\.1:9\/v1 was given with a user name or password|is not a valid URL \(not shown)/,
        );
        expect(run.stderr).toContain('headers = { Authorization = "Basic <base64 of user:password>" }');
        expect(`${run.stdout}${run.stderr}`).not.toMatch(/password@|hunter2|secret/);
        if (args.includes('--json'))
          expect(JSON.parse(run.stdout)).toMatchObject({ type: 'startup-error', error: { code: 'invalid_base_url' } });
      }
    }
  }, 60_000);

  it("says in one line, at once, that nothing listens at a local server's port", async () => {
    workspace = new CliWorkspace();
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const run = await agentloop(['run', '--base-url', url, '--model', 'm', 'hi']);
    expect(run.status).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    // Nothing listens on a local port: not retried, since a server that is not running will not start
    // within the retries' few seconds.
    expect(lines).toEqual([
      `✗ Cannot reach the server at ${url}: nothing is listening at 127.0.0.1:${new URL(url).port}; is the local server running?`,
    ]);
  }, 30_000);

  it('fails at once, without a retry, for a port fetch never connects to', async () => {
    workspace = new CliWorkspace();
    const run = await agentloop(['run', '--base-url', 'http://127.0.0.1:1/v1', '--model', 'm', 'hi']);
    expect(run.status).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      '✗ Cannot reach the server at http://127.0.0.1:1/v1: fetch does not connect to that port (bad port); use the port the server listens on.',
    ]);
  }, 30_000);

  it("keeps a server's escape sequences off the terminal when the OpenAI SDK prints them with console.error", async () => {
    workspace = new CliWorkspace();
    // The SDK prints a `thread.*` event it cannot parse with console.error, past its logger option.
    const { createServer } = await import('node:http');
    const evil = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: thread.run\ndata: \x1b]52;c;ZXZpbA==\x07\x1b[2J\x9b2J\u202eboom\n\n');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = evil.address() as { port: number };
      const run = await agentloop(['run', '--base-url', `http://127.0.0.1:${port}/v1`, '--model', 'm', 'hi']);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('Could not parse message into JSON: boom\n');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
    } finally {
      evil.closeAllConnections();
      await new Promise((resolve) => evil.close(resolve));
    }
  }, 30_000);
});

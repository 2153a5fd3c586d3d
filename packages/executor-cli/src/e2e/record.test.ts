// End-to-end test of `agentloop run --record FILE`: the built command records its model traffic against a
// scripted OpenAI-compatible server on 127.0.0.1, then the cassette replays through replayProvider into
// the agent the command builds (its composition, from the sources, with no server), giving the same result.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentResult } from '@agentloop/core';
import { replayProvider } from '@agentloop/core/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { composeAgent } from '../cli/compose-agent.js';
import { resolveSessionSettings } from '../config/index.js';
import { assertBuilt, type CliWorkspace } from '../test-support/cli-fixture.js';
import { MemoryOutput } from '../test-support/index.js';
import { configureNotesMcpServer, isAlive, startedPids } from '../test-support/mcp-notes-config.js';
import { runAgentloop } from '../test-support/run-agentloop.js';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

// Not shaped like a vendor's key, so only the exact redaction of the key in use can catch it.
const API_KEY = 'e2e-local-key-Zq81x7Lm29Vb';
const TASK = 'Which key does the local server use?';
const RESULT = 'The key is in key.txt; I will not repeat it.';

const terminal = useTerminalTest('record');

/** A script run by runNode that has not ended: a test that failed waiting for it ends it. */
let running: ChildProcess | undefined;

// Registered after useTerminalTest's, so it runs before them: the script ends before its workspace goes.
afterEach(() => {
  running?.kill('SIGKILL');
  running = undefined;
});

describe('agentloop run --record', () => {
  beforeAll(() => assertBuilt());

  it('records a cassette without the API key that replays to the same result', async () => {
    const workspace = terminal.workspace();
    // A tool reads the key in use, so the model traffic carries it.
    writeFileSync(join(workspace.project, 'key.txt'), `${API_KEY}\n`);
    const server = await terminal.server([
      { text: 'Reading key.txt.', toolCalls: [{ name: 'read_file', arguments: { path: 'key.txt' } }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: RESULT, artifacts: ['key.txt'] } }] },
    ]);
    const cassette = join(workspace.root, 'cassettes', 'session.jsonl');
    const environment = { OPENAI_API_KEY: API_KEY };
    const flags = { baseUrl: server.url, model: 'test-model' };
    const run = await runAgentloop(
      workspace,
      ['run', '--record', cassette, '--base-url', flags.baseUrl, '--model', flags.model, TASK],
      environment,
    );
    expect(run.stderr).toContain('✔ Done');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${RESULT}\n`);
    // The server saw the key in the tool result; the cassette did not keep it.
    expect(JSON.stringify(server.requests[1])).toContain(API_KEY);
    const recorded = readFileSync(cassette, 'utf8');
    expect(recorded).not.toContain(API_KEY);
    expect(recorded).toContain('[REDACTED]');
    const lines = recorded
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.type).filter((type) => type !== 'chunk')).toEqual([
      'cassette',
      'request',
      'end',
      'request',
      'end',
    ]);

    // The same agent the command built, over the cassette instead of the server.
    const settings = await resolveSessionSettings(flags, {
      environment: workspace.environment(environment),
      userConfigFile: workspace.userConfigFile,
      cwd: workspace.project,
    });
    const replay = replayProvider(cassette, { secrets: [API_KEY] });
    const composed = composeAgent(settings, {
      createProvider: async () => replay,
      errorOutput: new MemoryOutput(),
      environment: workspace.environment(environment),
    });
    await server.close();
    try {
      const result: AgentResult = await (await composed.agent).run(TASK);
      replay.assertComplete();
      expect(result.exit).toBe('task_completion');
      expect(result.payload).toEqual({ result: RESULT, artifacts: ['key.txt'] });
      expect(result.iterations).toBe(2);
    } finally {
      await composed.dispose();
    }
  }, 30_000);

  it('refuses a cassette it cannot write with status 2, before any model call', async () => {
    const workspace = terminal.workspace();
    const server = await terminal.server([]);
    const cassette = join(workspace.project, 'notes.txt', 'session.jsonl');
    const run = await runAgentloop(workspace, [
      'run',
      '--record',
      cassette,
      '--base-url',
      server.url,
      '--model',
      'test-model',
      TASK,
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^✗ --record .*\/notes\.txt\/session\.jsonl: the cassette cannot be written \(E[A-Z]+: .*\)\. Give a file in a folder you can write to\.\n$/,
    );
    expect(server.requests).toEqual([]);
  }, 30_000);
});

/** The replay sample of the README's "Recording a session", as a user copies it. */
function readmeReplaySample(): string {
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  const section = readme.slice(readme.indexOf('## Recording a session'));
  const sample = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!sample?.includes('replayProvider('))
    throw new Error('The README has no replay sample under "Recording a session".');
  return sample;
}

describe("the README's replay sample", () => {
  beforeAll(() => assertBuilt());

  it('replays a session recorded with an MCP server configured, and exits, its server ended', async () => {
    const workspace = terminal.workspace();
    const { pidFile } = configureNotesMcpServer(workspace);
    const server = await terminal.server([
      { toolCalls: [{ name: 'notes__count_notes', arguments: {} }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'You have 3 notes.' } }] },
    ]);
    const sample = readmeReplaySample();
    // Recorded with the sample's model and task, against the scripted server in place of the sample's: the
    // replay sends nothing, and the base URL is not in what the model is sent.
    const [, model, task] = /model: '([^']+)'[\s\S]*\.run\('([^']+)'\)/.exec(sample) ?? [];
    const recorded = await runAgentloop(workspace, [
      'run',
      '--record',
      join(workspace.project, 'session.jsonl'),
      '--base-url',
      server.url,
      '--model',
      model!,
      task!,
    ]);
    expect(recorded.status).toBe(0);
    await server.close();
    // The script sits in the project, with the repository's packages in reach as an app has them installed.
    symlinkSync(
      fileURLToPath(new URL('../../../../node_modules', import.meta.url)),
      join(workspace.project, 'node_modules'),
    );
    writeFileSync(join(workspace.project, 'replay.mjs'), sample);

    const replayed = await runNode(workspace, join(workspace.project, 'replay.mjs'));

    expect(replayed.stderr).toBe('');
    expect(replayed.stdout).toBe("{ result: 'You have 3 notes.' }\n");
    expect(replayed.status).toBe(0);
    // The recording's run and the replay's each started the server once, and neither left it running.
    const pids = startedPids(pidFile);
    expect(pids).toHaveLength(2);
    expect(pids.filter(isAlive)).toEqual([]);
  }, 60_000);
});

/** Runs a script with node in the workspace's project and environment, to its end (or the test's timeout). */
function runNode(at: CliWorkspace, script: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [script], {
    cwd: at.project,
    env: at.environment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running = child;
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      running = undefined;
      resolve({ status, stdout, stderr });
    });
  });
}

describe.skipIf(!tmuxAvailable())('agentloop --record in a terminal (tmux)', () => {
  beforeAll(() => assertBuilt());

  it('records the whole session into one cassette, the model /model switches to included', async () => {
    const workspace = terminal.workspace();
    const server = await terminal.server([
      { toolCalls: [{ name: 'converse', arguments: { message: 'Hello from the first model.' } }] },
      { toolCalls: [{ name: 'converse', arguments: { message: 'Hello from the second model.' } }] },
    ]);
    const cassette = join(workspace.root, 'session.jsonl');
    const tmux = terminal.startTmux(
      workspace.commandLine(
        ['--record', cassette, '--provider', 'openai', '--base-url', server.url, '--model', 'first-model'],
        { OPENAI_API_KEY: API_KEY },
      ),
    );
    await tmux.waitFor(/\n›$/);
    tmux.type('Hi');
    tmux.press('Enter');
    await tmux.waitFor(/Hello from the first model\.\n›$/);
    tmux.type('/model second-model');
    tmux.press('Enter');
    await tmux.waitFor(/Now using .*second-model.*\n›$/);
    tmux.type('Hi again');
    tmux.press('Enter');
    await tmux.waitFor(/Hello from the second model\.\n›$/);
    tmux.press('C-d');
    expect(await tmux.exitStatus()).toBe(0);

    expect(server.requests.map((request) => request.model)).toEqual(['first-model', 'second-model']);
    const recorded = readFileSync(cassette, 'utf8');
    expect(recorded).not.toContain(API_KEY);
    const lines = recorded
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ type: 'cassette', provider: { capabilities: { modelId: 'first-model' } } });
    const requests = lines.filter((line) => line.type === 'request');
    expect(requests.map((line) => line.turn)).toEqual([1, 2]);
    // The system prompt names the model of each call: the second was made by the model switched to.
    expect(requests[1].request.systemPrompt).toContain('second-model');
    expect(requests[1].request.messages.at(-1)).toMatchObject({ role: 'user', content: [{ text: 'Hi again' }] });
  }, 60_000);
});

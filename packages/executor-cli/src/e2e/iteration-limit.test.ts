// End-to-end tests of the iteration limit: the built command, against a scripted OpenAI-compatible server
// on 127.0.0.1, run to its end as a child process (stdout and stderr apart) or driven in tmux. They import
// nothing from the sources, so they test the build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../test-support/cli-fixture.js';
import { runAgentloop } from '../test-support/run-agentloop.js';
import type { ScriptEntry } from '../test-support/scripted-openai-server.mjs';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const SUMMARY = 'Read **notes.txt**: it says to buy milk. Still to do: check the README.';
const LIMIT_LINE =
  "⚠ Stopped after 2 model calls: the iteration limit was reached before the task was done. The agent's summary of what it did and what remains:\n";
/** The limit line in a terminal 120 columns wide: wrapped between words, the second row indented. */
const LIMIT_LINE_IN_TERMINAL =
  "⚠ Stopped after 2 model calls: the iteration limit was reached before the task was done. The agent's summary of what it\n  did and what remains:\n";
const WRAP_UP_LINE = '⚑ Last step (2 of 2): asking the model to wrap up and say what remains.\n';

/** A model that reads a file, then, told to wrap up, summarises. */
const readThenSummarise: ScriptEntry[] = [
  { text: 'Reading the notes.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
  { toolCalls: [{ name: 'task_completion', arguments: { result: SUMMARY, artifacts: ['notes.txt'] } }] },
];

type ChatRequest = { tools?: { function: { name: string } }[]; messages: { role: string; content: unknown }[] };

const toolNames = (request: ChatRequest) => (request.tools ?? []).map((tool) => tool.function.name).sort();

const terminal = useTerminalTest('limit');

async function setUp(script: ScriptEntry[]) {
  const workspace = terminal.workspace();
  const server = await terminal.server(script);
  return {
    workspace,
    server,
    connection: ['--base-url', server.url, '--model', 'test-model', '--max-iterations', '2'],
  };
}

describe('agentloop run at the iteration limit', () => {
  beforeAll(() => assertBuilt());

  it("prints the wrap-up's summary alone on stdout, the limit on stderr, and exits with 4", async () => {
    const { workspace, server, connection } = await setUp(readThenSummarise);
    const run = await runAgentloop(workspace, ['run', ...connection, 'What do my notes say?']);
    expect(run.status).toBe(4);
    expect(run.stdout).toBe(`${SUMMARY}\n`);
    expect(run.stderr).toMatch(
      /^Reading the notes\.\n✓ read_file\(path: "notes\.txt"\) (?:\d+ ms|\d+\.\d s|\d+ m \d\d s) → Remember the milk\.\n/,
    );
    expect(run.stderr).toContain(
      `${WRAP_UP_LINE}${LIMIT_LINE}Artifacts:\n  • notes.txt\nRun it again with a higher --max-iterations (or max_iterations in the configuration).\n`,
    );
    // The last call offered the loop-control tools alone.
    expect(toolNames(server.requests[1])).toEqual(['ask_question', 'converse', 'task_completion']);
  }, 30_000);

  it('prints loop-wrap-up and loop-max-reached with the summary as JSON lines with --json', async () => {
    const { workspace, connection } = await setUp(readThenSummarise);
    const run = await runAgentloop(workspace, ['run', '--json', ...connection, 'What do my notes say?']);
    expect(run.status).toBe(4);
    expect(run.stderr).toBe('');
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const runId = events[0].runId;
    const types = events.map((event) => event.type);
    expect(types.indexOf('loop-wrap-up')).toBe(types.lastIndexOf('loop-iteration') + 1);
    expect(events.find((event) => event.type === 'loop-wrap-up')).toEqual({
      type: 'loop-wrap-up',
      eventId: `${runId}/run/loop-wrap-up/1`,
      runId,
      iteration: 2,
      maxIterations: 2,
    });
    expect(events.find((event) => event.type === 'loop-max-reached')).toEqual({
      type: 'loop-max-reached',
      eventId: `${runId}/run/loop-max-reached/1`,
      runId,
      iterations: 2,
      maxIterations: 2,
      ending: 'wrap-up',
      summary: { result: SUMMARY, artifacts: ['notes.txt'] },
    });
    expect(events.at(-1)).toMatchObject({
      type: 'loop-end',
      result: { exit: 'max_iterations', payload: { result: SUMMARY, artifacts: ['notes.txt'] } },
    });
    expect(types).not.toContain('task-complete');
  }, 30_000);

  it('stops without a wrap-up with --on-max-iterations stop', async () => {
    const { workspace, server, connection } = await setUp([
      { toolCalls: [{ name: 'list_files', arguments: {} }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
    ]);
    const run = await runAgentloop(workspace, ['run', '--on-max-iterations', 'stop', ...connection, 'Look around']);
    expect(run.status).toBe(4);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toContain('⚑');
    expect(run.stderr).toMatch(
      /✓ read_file\(path: "notes\.txt"\) (?:\d+ ms|\d+\.\d s|\d+ m \d\d s) → Remember the milk\.\n⚠ Stopped after 2 model calls: the iteration limit was reached before the task was done\.\nRun it again/,
    );
    // The last call was an ordinary one, with every tool.
    expect(toolNames(server.requests[1])).toContain('list_files');
  }, 30_000);

  it('refuses an on_max_iterations the configuration gets wrong, with status 2', async () => {
    const { workspace, connection } = await setUp([]);
    const file = join(workspace.project, '.agentloop', 'config.toml');
    mkdirSync(dirname(file));
    writeFileSync(file, 'on_max_iterations = "halt"\n');
    const run = await runAgentloop(workspace, ['run', ...connection, 'Look around']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `✗ Invalid configuration in ${file}: key "on_max_iterations" must be one of "wrap-up", "stop" (got "halt")\n`,
    );
  }, 30_000);
});

const PROMPT = /\n›$/;

describe.skipIf(!tmuxAvailable())('agentloop at the iteration limit, in a terminal (tmux)', () => {
  beforeAll(() => assertBuilt());

  it('shows the summary under the limit line, and "continue" goes on with the history intact', async () => {
    const { workspace, server, connection } = await setUp(readThenSummarise);
    const tmux = terminal.startTmux(workspace.commandLine(['--provider', 'openai', ...connection]));
    await tmux.waitFor(PROMPT);
    tmux.type('What do my notes say?');
    tmux.press('Enter');
    const screen = await tmux.waitFor(/Type "continue" to let it go on.*\n›$/);
    expect(screen).toContain(WRAP_UP_LINE.trimEnd());
    // The summary is rendered as Markdown, as a result is: the bold marks are gone.
    expect(screen).toContain(
      `${LIMIT_LINE_IN_TERMINAL}Read notes.txt: it says to buy milk. Still to do: check the README.\nArtifacts:\n  • notes.txt\n`,
    );

    server.push({ toolCalls: [{ name: 'task_completion', arguments: { result: 'The README is checked too.' } }] });
    tmux.type('continue');
    tmux.press('Enter');
    await tmux.waitFor(/✔ Done\nThe README is checked too\.\n›$/);
    // The continued run sent the whole conversation, its first run's summary included, and every tool.
    const continued: ChatRequest = server.requests[2];
    expect(continued.messages.filter((message) => message.role !== 'system')).toMatchObject([
      { role: 'user', content: 'What do my notes say?' },
      { role: 'assistant', tool_calls: [{ function: { name: 'read_file' } }] },
      { role: 'tool', content: 'Remember the milk.\n' },
      { role: 'assistant', tool_calls: [{ function: { name: 'task_completion' } }] },
      { role: 'tool' },
      { role: 'user', content: 'continue' },
    ]);
    expect(toolNames(continued)).toContain('read_file');
  }, 60_000);
});

// End-to-end tests of saved sessions: the built command runs in tmux against a scripted OpenAI-compatible
// server on 127.0.0.1; a second `agentloop` in the same project (and the same data directory, under the
// workspace's HOME) resumes what the first one saved.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliWorkspace } from '../test-support/cli-fixture.js';
import { runAgentloop } from '../test-support/run-agentloop.js';
import type { ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { type TmuxSession, tmuxAvailable } from '../test-support/tmux-session.js';

const PROMPT = /\n›$/;
const terminal = useTerminalTest('sessions');
/** The running test's workspace and server, which startAgentloop runs in and against. */
let workspace: CliWorkspace | undefined;
let server: ScriptedOpenAIServer | undefined;

/** Starts `agentloop` with these arguments in tmux, in the test's workspace, against its server. */
function startAgentloop(args: string[] = []): TmuxSession {
  return terminal.startTmux(
    workspace!.commandLine(['--provider', 'openai', '--base-url', server!.url, '--model', 'test-model', ...args]),
  );
}

/** Types a task, waits for the agent's answer and the prompt after it. */
async function task(tmux: TmuxSession, text: string, answer: RegExp): Promise<string> {
  tmux.type(text);
  tmux.press('Enter');
  return tmux.waitFor(answer);
}

/** Leaves the session with /exit and waits for the command to end. */
async function exit(tmux: TmuxSession): Promise<void> {
  tmux.type('/exit');
  tmux.press('Enter');
  expect(await tmux.exitStatus()).toBe(0);
}

const done = (result: string) => ({ toolCalls: [{ name: 'task_completion', arguments: { result } }] });

/** The texts of the user messages of a request the server got. */
function userTexts(body: { messages: { role: string; content: unknown }[] }): string[] {
  return body.messages
    .filter((message) => message.role === 'user')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)));
}

describe.skipIf(!tmuxAvailable())('saved sessions (tmux)', () => {
  beforeAll(() => assertBuilt());

  it('--continue resumes the last session of the directory, shows its last exchange, and the model gets its history', async () => {
    workspace = terminal.workspace();
    server = await terminal.server();
    server.push(done('The notes say: remember the milk.'), done('You asked about your notes.'));

    const first = startAgentloop();
    await first.waitFor(PROMPT);
    await task(first, 'What do my notes say?', /remember the milk\.\n›$/);
    await exit(first);

    const second = startAgentloop(['--continue']);
    const screen = await second.waitFor(PROMPT);
    expect(screen).toMatch(/↻ Resumed session [0-9a-f-]{36} · What do my notes say\? · 3 messages · just now\n/);
    expect(screen).toContain('› What do my notes say?\n✔ The notes say: remember the milk.\n');
    await task(second, 'What did I ask before?', /You asked about your notes\.\n›$/);
    expect(userTexts(server.requests[1]!)).toEqual(['What do my notes say?', 'What did I ask before?']);
    await exit(second);

    // The session is one, with both turns: `agentloop sessions` lists it.
    const listed = await runAgentloop(workspace, ['sessions']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^ {2}[0-9a-f-]{36} {2}just now +6 msgs .* test-model {2}What do my notes say\?\n/);
  }, 60_000);

  it('--resume without an id lists the sessions to pick with the arrow keys, and resumes the chosen one', async () => {
    workspace = terminal.workspace();
    server = await terminal.server();
    server.push(done('Milk it is.'), done('README it is.'), done('Still about the milk.'));
    for (const [input, answer] of [
      ['Read my notes', /Milk it is\.\n›$/],
      ['Read the README', /README it is\.\n›$/],
    ] as const) {
      const tmux = startAgentloop();
      await tmux.waitFor(PROMPT);
      await task(tmux, input, answer);
      await exit(tmux);
    }

    const picking = startAgentloop(['--resume']);
    await picking.waitFor(/Which session do you resume\?[\s\S]*Read the README[\s\S]*Read my notes/);
    picking.press('Down');
    picking.press('Enter');
    const screen = await picking.waitFor(PROMPT);
    expect(screen).toContain('› Read my notes\n✔ Milk it is.\n');
    await task(picking, 'And now?', /Still about the milk\.\n›$/);
    expect(userTexts(server.requests[2]!)).toEqual(['Read my notes', 'And now?']);
    await exit(picking);
  }, 60_000);

  it('--resume <id> asks the question the session was left waiting on, and sends the chosen answer', async () => {
    workspace = terminal.workspace();
    server = await terminal.server();
    server.push(
      {
        toolCalls: [
          {
            name: 'ask_question',
            arguments: { question: 'Which file should I read?', suggestions: ['README.md', 'notes.txt'] },
          },
        ],
      },
      done('Reading notes.txt.'),
    );
    const first = startAgentloop();
    await first.waitFor(PROMPT);
    first.type('Read a file');
    first.press('Enter');
    await first.waitFor(/Which file should I read\?[\s\S]*Something else…/);
    // Back out of the question, then read this session's id from /sessions.
    first.press('Escape');
    await first.waitFor(PROMPT);
    first.type('/sessions');
    first.press('Enter');
    const listed = await first.waitFor(/● [0-9a-f-]{36} .*\n[\s\S]*›$/);
    const id = /● ([0-9a-f-]{36}) /.exec(listed)![1]!;
    await exit(first);

    const second = startAgentloop(['--resume', id.slice(0, 8)]);
    const screen = await second.waitFor(
      /Which file should I read\?[\s\S]*README\.md[\s\S]*notes\.txt[\s\S]*Something else…/,
    );
    expect(screen).toContain(`↻ Resumed session ${id} · Read a file`);
    second.press('Down');
    second.press('Enter');
    await second.waitFor(/Reading notes\.txt\.\n›$/);
    expect(userTexts(server.requests[1]!).at(-1)).toBe('notes.txt');
    await exit(second);
  }, 60_000);

  it('shows the directory of each session to pick, and warns when one of another directory resumes here', async () => {
    workspace = terminal.workspace();
    server = await terminal.server();
    server.push(done('Elsewhere it is.'), done('Here it is.'), done('Resumed here.'));
    const elsewhere = join(workspace.root, 'elsewhere');
    mkdirSync(elsewhere);
    const connection = ['--provider', 'openai', '--base-url', server.url, '--model', 'test-model'];
    expect((await runAgentloop(workspace, ['run', ...connection, 'Task elsewhere'], {}, elsewhere)).status).toBe(0);
    expect((await runAgentloop(workspace, ['run', ...connection, 'Task here'])).status).toBe(0);

    const picking = startAgentloop(['--resume']);
    const list = await picking.waitFor(/Which session do you resume\?[\s\S]*Task here[\s\S]*Task elsewhere.*\n/);
    expect(list).toMatch(/Task here {2}\(just now, 3 messages, here\)/);
    expect(list).toContain(`Task elsewhere  (just now, 3 messages, in ${elsewhere})`);
    picking.press('Escape');
    expect(await picking.exitStatus()).toBe(130);

    const listed = await runAgentloop(workspace, ['sessions', '--all']);
    const id = new RegExp(`([0-9a-f-]{36}) .*Task elsewhere\\n\\s+${elsewhere}`).exec(listed.stdout)?.[1];
    expect(id).toBeDefined();
    const resumed = await runAgentloop(workspace, ['run', ...connection, '--resume', id!.slice(0, 8), 'And now?']);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toContain(
      `⚠ Session ${id} was saved in ${elsewhere}, not in this directory: it resumes here, in ${workspace.project}, where its tools now read, write and run commands. To continue it where it was, run agentloop --resume ${id} in ${elsewhere}.\n`,
    );
  }, 60_000);

  it('refuses an id no session has, naming the command that lists them', async () => {
    workspace = terminal.workspace();
    server = await terminal.server();
    const tmux = startAgentloop(['--resume', 'nope']);

    expect(await tmux.exitStatus()).toBe(2);
    expect(tmux.capture()).toMatch(/✗ No session "nope" in .*sessions\.sqlite: agentloop sessions --all lists them\./);
  }, 30_000);
});

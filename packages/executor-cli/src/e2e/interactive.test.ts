// End-to-end tests of the interactive `agentloop` command: the built command runs in tmux against a
// scripted OpenAI-compatible server on 127.0.0.1, and the tests type and read the screen as a person
// would. They import nothing from the sources, so they test the build.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, DISPOSE_PLUGIN } from '../test-support/cli-fixture.js';
import type { ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const PROMPT = /\n›$/; // capture-pane drops trailing spaces, and the prompt is last when it waits
const terminal = useTerminalTest('interactive');

/** Starts `agentloop` in tmux against a scripted server. */
async function startAgentloop(
  options: { slowTool?: boolean; plugins?: Record<string, string>; args?: string[]; withServer?: boolean } = {},
) {
  const workspace = terminal.workspace({ slowTool: options.slowTool ?? false, plugins: options.plugins ?? {} });
  const server = options.withServer === false ? undefined : await terminal.server();
  const args = server
    ? ['--provider', 'openai', '--base-url', server.url, '--model', 'test-model', ...(options.args ?? [])]
    : (options.args ?? []);
  const tmux = terminal.startTmux(workspace.commandLine(args));
  return { tmux, server: server as ScriptedOpenAIServer, workspace };
}

/** The text of the last user message of a request the server got. */
function lastUserText(body: { messages: { role: string; content: unknown }[] }): string {
  const message = body.messages.filter((entry) => entry.role === 'user').at(-1);
  return typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content);
}

describe.skipIf(!tmuxAvailable())('agentloop in a terminal (tmux)', () => {
  beforeAll(() => assertBuilt());

  it('runs a task that uses a tool and completes, rendering each step', async () => {
    const { tmux, server } = await startAgentloop();
    server.push(
      { text: 'I will read the notes.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
      {
        toolCalls: [
          {
            name: 'task_completion',
            arguments: { result: 'The notes say: **remember the milk**.', artifacts: ['notes.txt'] },
          },
        ],
      },
    );
    await tmux.waitFor(PROMPT);
    tmux.type('What do my notes say?');
    tmux.press('Enter');
    const screen = await tmux.waitFor(/Artifacts:\n\s+• notes\.txt\n›$/);
    expect(screen).toContain('› What do my notes say?\nI will read the notes.\n');
    expect(screen).toMatch(/✓ read_file\(path: "notes\.txt"\) (?:\d+ ms|\d+\.\d s|\d+ m \d\d s) → Remember the milk\./);
    expect(screen).toContain('✔ Done\nThe notes say: remember the milk.');
    expect(server.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', content: 'Remember the milk.\n' });
  }, 60_000);

  it('asks the agent’s question as a list and sends the chosen suggestion', async () => {
    const { tmux, server } = await startAgentloop();
    server.push(
      {
        toolCalls: [
          {
            name: 'ask_question',
            arguments: { question: 'Which file should I read?', suggestions: ['README.md', 'notes.txt'] },
          },
        ],
      },
      (body) => ({
        toolCalls: [{ name: 'task_completion', arguments: { result: `You chose ${lastUserText(body)}.` } }],
      }),
    );
    await tmux.waitFor(PROMPT);
    tmux.type('Read a file');
    tmux.press('Enter');
    await tmux.waitFor(/Which file should I read\?[\s\S]*README\.md[\s\S]*notes\.txt[\s\S]*Something else…/);
    tmux.press('Down');
    tmux.press('Enter');
    const screen = await tmux.waitFor(/You chose notes\.txt\.\n›$/);
    expect(lastUserText(server.requests[1])).toBe('notes.txt');
    expect(screen).toContain('✔ Done');
  }, 60_000);

  it('cancels a running tool with Ctrl-C and keeps the session', async () => {
    const { tmux, server } = await startAgentloop({ slowTool: true });
    server.push(
      { text: 'Waiting a while.', toolCalls: [{ name: 'slow_tool', arguments: { seconds: 60 } }] },
      { toolCalls: [{ name: 'converse', arguments: { message: 'Still here.' } }] },
    );
    await tmux.waitFor(PROMPT);
    tmux.type('Wait for a minute');
    tmux.press('Enter');
    await tmux.waitFor('slow_tool(seconds: 60)');
    tmux.press('C-c');
    let screen = await tmux.waitFor(/Cancelled\. The conversation is kept\. Ctrl-C again or Ctrl-D exits\.\n›$/);
    expect(screen).toMatch(/✗ slow_tool\(seconds: 60\) (?:\d+ ms|\d+\.\d s|\d+ m \d\d s) → error: /);
    tmux.type('Are you there?');
    tmux.press('Enter');
    screen = await tmux.waitFor(/Still here\.\n›$/);
    // The cancelled call got a result, so the conversation could go on.
    const toolMessage = server.requests[1].messages.find((message: { role: string }) => message.role === 'tool');
    expect(toolMessage.tool_call_id).toBe('call_1_1');
    expect(lastUserText(server.requests[1])).toBe('Are you there?');
    // A second Ctrl-C, at the prompt, ends the session.
    tmux.press('C-c');
    expect(await tmux.exitStatus()).toBe(0);
  }, 60_000);

  it('queues text typed while the agent works and delivers it at its next step', async () => {
    const { tmux, server } = await startAgentloop({ slowTool: true });
    server.push({ toolCalls: [{ name: 'slow_tool', arguments: { seconds: 1.5 } }] }, (body) => ({
      toolCalls: [{ name: 'converse', arguments: { message: `Noted: ${lastUserText(body)}` } }],
    }));
    await tmux.waitFor(PROMPT);
    tmux.type('Wait a moment');
    tmux.press('Enter');
    await tmux.waitFor('slow_tool(seconds: 1.5)');
    tmux.type('then check the README');
    tmux.press('Enter');
    await tmux.waitFor("↳ queued for the agent's next step: then check the README");
    const screen = await tmux.waitFor(/Noted: then check the README\n›$/);
    expect(screen).toMatch(
      /✓ slow_tool\(seconds: 1\.5\) 1\.\d s → waited 1\.5 s\n↳ delivered to the agent: then check the README/,
    );
  }, 60_000);

  it('shows input queued while the model writes above the line it is writing, never cutting the line', async () => {
    const { tmux, server } = await startAgentloop();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    server.push(
      {
        text: 'I am reading the notes and the README before I answer.',
        chunkSize: 4,
        // The model stops mid-sentence until the queued input is on the screen.
        hold: { afterChars: 16, until: released },
        toolCalls: [{ name: 'list_files', arguments: {} }],
      },
      (body) => ({ toolCalls: [{ name: 'converse', arguments: { message: `Noted: ${lastUserText(body)}` } }] }),
    );
    await tmux.waitFor(PROMPT);
    tmux.type('Look around');
    tmux.press('Enter');
    await tmux.waitFor(/\nI am reading the$/);
    tmux.type('then check the README');
    tmux.press('Enter');
    await tmux.waitFor("↳ queued for the agent's next step: then check the README");
    release();
    const screen = await tmux.waitFor(/Noted: then check the README\n›$/);
    expect(screen).toContain(
      "› Look around\n↳ queued for the agent's next step: then check the README\nI am reading the notes and the README before I answer.\n✓ list_files()",
    );
  }, 60_000);

  it('renders the streamed text and the result as Markdown, keeping the blank lines between blocks', async () => {
    const { tmux, server } = await startAgentloop();
    server.push(
      {
        text: 'Here is the plan:\n\n1. Read **notes.txt**.\n2. Answer with `the notes`.\n\nStarting.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }],
      },
      {
        toolCalls: [
          {
            name: 'converse',
            arguments: { message: 'Found:\n\n- **milk**\n\n- nothing else\n\nThat is all.' },
          },
        ],
      },
    );
    await tmux.waitFor(PROMPT);
    tmux.type('Plan it');
    tmux.press('Enter');
    const screen = await tmux.waitFor(/That is all\.\n›$/);
    expect(screen).toContain(
      '› Plan it\nHere is the plan:\n\n  1. Read notes.txt.\n  2. Answer with the notes.\n\nStarting.\n✓ read_file',
    );
    expect(screen).toContain('Found:\n\n  * milk\n\n  * nothing else\n\nThat is all.\n›');
  }, 60_000);

  it('says once that tools go through the XML protocol after the server rejected native tools', async () => {
    const xmlConverse = (message: string) => ({
      text: `<tool>\n{"server_name": "local", "tool_name": "converse", "arguments": {"message": "${message}"}}\n</tool>`,
    });
    const { tmux, server } = await startAgentloop();
    server.push({ status: 400, errorMessage: 'registry.ollama.ai/library/test-model does not support tools' });
    server.push(xmlConverse('Switched.'), xmlConverse('Still XML.'));
    await tmux.waitFor(PROMPT);
    tmux.type('Hello');
    tmux.press('Enter');
    let screen = await tmux.waitFor(/Switched\.\n›$/);
    expect(screen).toContain(
      '› Hello\n⇄ The server rejected native tool calls: tools go through the XML protocol from now on.\nSwitched.',
    );
    tmux.type('Again');
    tmux.press('Enter');
    screen = await tmux.waitFor(/Still XML\.\n›$/);
    expect(screen.match(/⇄/g)).toHaveLength(1);
    expect(server.requests[2].tools).toBeUndefined();
  }, 60_000);

  it('says before the first turn that a model without native tools gets them through the XML protocol', async () => {
    const { tmux, server } = await startAgentloop({ args: ['--model', 'o1-mini'] });
    server.push({
      text: '<tool>\n{"server_name": "local", "tool_name": "converse", "arguments": {"message": "Hi."}}\n</tool>',
    });
    await tmux.waitFor(PROMPT);
    tmux.type('Hello');
    tmux.press('Enter');
    const screen = await tmux.waitFor(/Hi\.\n›$/);
    expect(screen).toMatch(
      /› Hello\n⇄ Tools go through the XML protocol: \S+o1-mini.* has no native tool calling\.\nHi\./,
    );
  }, 60_000);

  it('recalls the lines typed in an earlier session with Up, from a file only its user can read', async () => {
    const { tmux: first, server, workspace } = await startAgentloop();
    await first.waitFor(PROMPT);
    first.type('/help');
    first.press('Enter');
    await first.waitFor(/Ctrl-D, exits\.\n›$/);
    first.press('C-d');
    expect(await first.exitStatus()).toBe(0);
    const file = join(workspace.root, '.local', 'state', 'agentloop', 'history');
    expect(readFileSync(file, 'utf8')).toBe('/help\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    first.kill();
    // A new session in the same home.
    const tmux = terminal.startTmux(
      workspace.commandLine(['--provider', 'openai', '--base-url', server.url, '--model', 'test-model']),
    );
    await tmux.waitFor(PROMPT);
    tmux.press('Up');
    await tmux.waitFor(/\n› \/help$/);
  }, 60_000);

  it('switches the model with /model and reports usage with /usage', async () => {
    const { tmux, server } = await startAgentloop();
    server.push({
      toolCalls: [{ name: 'converse', arguments: { message: 'Hello!' } }],
      usage: { prompt_tokens: 1200, completion_tokens: 34 },
    });
    await tmux.waitFor(PROMPT);
    tmux.type('/model');
    tmux.press('Enter');
    // A server given by its base URL is shown as errors name it, with its URL, and answers to that name.
    await tmux.waitFor(`Model: openai-compatible:test-model @ ${server.url}`);
    tmux.type('/model openai-compatible:other-model');
    tmux.press('Enter');
    await tmux.waitFor(`Now using openai-compatible:other-model @ ${server.url}.`);
    tmux.type('Hi');
    tmux.press('Enter');
    await tmux.waitFor(/Hello!\n›$/);
    expect(server.requests[0].model).toBe('other-model');
    tmux.type('/usage');
    tmux.press('Enter');
    const screen = await tmux.waitFor(/Wall time: .*\n›$/);
    expect(screen).toMatch(/turn {2}step {8}input {6}output {2}cache read {3}reasoning\n {2}1 {5}1 {11}1,200 {10}34/);
    expect(screen).toMatch(/total {13}1,200 {10}34/);
    // A model the table does not know: its window is the 32k of an unknown model, and it has no price.
    expect(screen).toContain('Context: 1,234 of 32,768 tokens (4% of context)');
    expect(screen).toContain('Tool calls: 0');
    expect(screen).toContain('Cost: not known (a model used has no price in the model table)');
  }, 60_000);

  it('compacts the conversation with /compact, and says how many tokens it freed', async () => {
    const { tmux, server } = await startAgentloop();
    // Usage as a provider would report it for these requests: the system prompt and the tools' schemas.
    for (const [index, message] of ['Hello!', 'Fine, thanks.', 'Goodbye!'].entries())
      server.push({
        toolCalls: [{ name: 'converse', arguments: { message } }],
        usage: { prompt_tokens: 3_000 + 60 * index, completion_tokens: 20 },
      });
    server.push({ text: '## Task\nSmall talk.\n## State of the work\nThe user said goodbye.' });
    await tmux.waitFor(PROMPT);
    for (const [input, answer] of [
      ['Hi', /Hello!\n›$/],
      ['How are you?', /Fine, thanks\.\n›$/],
      ['Bye', /Goodbye!\n›$/],
    ] as const) {
      tmux.type(input);
      tmux.press('Enter');
      await tmux.waitFor(answer);
    }
    tmux.type('/compact');
    tmux.press('Enter');
    const screen = await tmux.waitFor(
      /⇣ Compacted the conversation: [\d,]+ → [\d,]+ tokens; \d+ earlier messages summarised\.\n›$/,
    );
    expect(screen).toContain('Compacting the conversation…');
    // The summarising request: the compaction prompt, and the older turns as a transcript.
    const summarising = server.requests[3] as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(summarising.messages[0])).toContain('You compact the conversation of an autonomous agent');
    expect(lastUserText(summarising)).toContain('[user]\nHow are you?');
  }, 60_000);

  it('says what to set when no provider is configured, and exits with status 2', async () => {
    const { tmux } = await startAgentloop({ withServer: false });
    expect(await tmux.exitStatus()).toBe(2);
    const screen = tmux.capture();
    expect(screen).toContain('No model provider is configured. Set one of:');
    expect(screen).toContain('ANTHROPIC_API_KEY=...');
    expect(screen).toContain('OPENAI_API_KEY=...');
    expect(screen).toContain('--base-url URL --model NAME');
  }, 60_000);

  it('exits with Ctrl-D at the prompt, ending the prompt line first', async () => {
    const { tmux } = await startAgentloop();
    await tmux.waitFor(PROMPT);
    tmux.press('C-d');
    expect(await tmux.exitStatus()).toBe(0);
    // What comes after the session (here the harness's status line, usually the shell's prompt) starts on a line of its own.
    expect(tmux.capture()).toMatch(/\n› ?\n\[exit 0\]$/);
  }, 60_000);

  it("runs the plugins' dispose hooks once when the session ends", async () => {
    const { tmux, workspace } = await startAgentloop({ plugins: { 'dispose-plugin.mjs': DISPOSE_PLUGIN } });
    await tmux.waitFor(PROMPT);
    tmux.press('C-d');
    expect(await tmux.exitStatus()).toBe(0);
    expect(workspace.disposals()).toBe(1);
  }, 60_000);

  it('runs the executor a plugin registers under TOKENS.Executor instead of its own', async () => {
    const executorPlugin = `
export default {
  name: 'e2e-executor',
  register(container) {
    container.register(Symbol.for('agentloop.Executor'), () => ({
      async run() { process.stdout.write('the plugin executor ran\\n'); return 5; },
    }));
  },
};
`;
    const { tmux, workspace } = await startAgentloop({
      plugins: { 'executor-plugin.mjs': executorPlugin, 'dispose-plugin.mjs': DISPOSE_PLUGIN },
    });
    expect(await tmux.exitStatus()).toBe(5);
    const screen = tmux.capture();
    expect(screen).toContain('the plugin executor ran');
    expect(screen).not.toContain('Type a task.');
    expect(workspace.disposals()).toBe(1);
  }, 60_000);
});

// End-to-end tests of MCP servers' requests in the built `agentloop` command, with the reference
// "everything" server as `[mcp_servers.everything]`: its elicitation as a form in a live session in tmux
// (defaults pre-filled, input checked, `n` declines, Esc cancels), its sampling request on the approval
// screen and answered by the session's model, and `agentloop run` declining the elicitation (nobody to
// ask). They import nothing from the sources.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../test-support/cli-fixture.js';
import { configureEverythingMcpServer } from '../test-support/everything-mcp-config.js';
import { runAgentloop } from '../test-support/run-agentloop.js';
import type { ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const PROMPT = /\n›$/;
const MODEL = ['--base-url', '', '--model', 'test-model'];
const terminal = useTerminalTest('mcp-requests');

function modelArgs(url: string): string[] {
  return MODEL.map((arg) => (arg === '' ? url : arg));
}

async function startAgentloop(approval = 'auto') {
  const workspace = terminal.workspace();
  configureEverythingMcpServer(workspace);
  const server = await terminal.server();
  const tmux = terminal.startTmux(
    workspace.commandLine(['--provider', 'openai', ...modelArgs(server.url), '--approval', approval]),
  );
  await tmux.waitFor(PROMPT);
  return { tmux, server };
}

/** The text of the tool result the model was sent in request `index`. */
function toolResult(scripted: ScriptedOpenAIServer, index: number): string {
  const message = scripted.requests[index]?.messages.at(-1) as { role: string; content: string } | undefined;
  expect(message?.role).toBe('tool');
  return message?.content ?? '';
}

describe.skipIf(!tmuxAvailable())('MCP servers’ requests in agentloop (tmux)', () => {
  beforeAll(() => assertBuilt());

  it('asks the server’s elicitation as a form: defaults pre-filled, input checked, the answer sent', async () => {
    const { tmux, server } = await startAgentloop();
    server.push(
      { toolCalls: [{ name: 'everything__trigger-elicitation-request', arguments: {} }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Form sent.' } }] },
    );
    tmux.type('Fill in the form');
    tmux.press('Enter');
    const asked = await tmux.waitFor(/Answer\?[\s\S]*Esc cancels/);
    expect(asked).toContain('MCP server everything asks for your input');
    expect(asked).toContain('Please provide inputs for the following fields:');
    tmux.press('y');
    // name (required): an empty answer is refused, then typed.
    await tmux.waitFor(/String — Your full, legal name/);
    tmux.press('Enter');
    await tmux.waitFor('String is required.');
    tmux.type('Ada Lovelace');
    tmux.press('Enter');
    await tmux.waitFor(/Boolean \(optional\)/);
    tmux.press('Enter');
    // firstLine: its default is pre-filled.
    await tmux.waitFor(/It was a dark and stormy night\./);
    tmux.press('Enter');
    // email: a wrong one is refused with how it should look.
    await tmux.waitFor(/String with email format \(optional\)/);
    tmux.type('ada');
    tmux.press('Enter');
    await tmux.waitFor('must be an email address, like ada@example.com.');
    tmux.type('@example.com');
    tmux.press('Enter');
    await tmux.waitFor(/String with uri format \(optional\)/);
    tmux.press('Enter');
    await tmux.waitFor(/String with date format \(optional\)/);
    tmux.press('Enter');
    // integer: pre-filled with 42, its range checked.
    await tmux.waitFor(/Integer \(optional\)/);
    tmux.press('Enter');
    await tmux.waitFor(/Number in range 1-1000 \(optional\)/);
    tmux.press('Enter');
    // The four choices and the legacy enum keep their defaults.
    for (const label of [
      'Untitled Single Select Enum',
      'Untitled Multiple Select Enum',
      'Titled Single Select Enum',
      'Titled Multiple Select Enum',
      'Legacy Titled Single Select Enum',
    ]) {
      await tmux.waitFor(new RegExp(`${label} \\(optional\\)`));
      tmux.press('Enter');
    }
    await tmux.waitFor(/✔ Done\nForm sent\.\n[\s\S]*›$/, 30_000);
    const result = toolResult(server, 1);
    expect(result).toContain('- Name: Ada Lovelace');
    expect(result).toContain('- Email: ada@example.com');
    expect(result).toContain('- Favorite Integer: 42');
    expect(result).toContain('"firstLine": "It was a dark and stormy night."');
    expect(result).toContain('"untitledMultipleSelectEnum": [\n      "Guitar"\n    ]');
    tmux.type('/exit');
    tmux.press('Enter');
    expect(await tmux.exitStatus()).toBe(0);
  }, 90_000);

  it('declines the elicitation with n and cancels it with Esc', async () => {
    const { tmux, server } = await startAgentloop();
    server.push(
      { toolCalls: [{ name: 'everything__trigger-elicitation-request', arguments: {} }] },
      { toolCalls: [{ name: 'everything__trigger-elicitation-request', arguments: {} }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Both asked.' } }] },
    );
    tmux.type('Ask twice');
    tmux.press('Enter');
    await tmux.waitFor(/Answer\?[\s\S]*Esc cancels/);
    tmux.press('n');
    await tmux.waitFor(/Decline\n[\s\S]*Answer\?[\s\S]*Esc cancels/);
    tmux.press('Escape');
    await tmux.waitFor(/✔ Done\nBoth asked\.\n[\s\S]*›$/, 30_000);
    expect(toolResult(server, 1)).toContain('User declined to provide the requested information.');
    expect(toolResult(server, 2)).toContain('User cancelled the elicitation dialog.');
    tmux.type('/exit');
    tmux.press('Enter');
    expect(await tmux.exitStatus()).toBe(0);
  }, 60_000);

  it('asks about the server’s sampling request on the approval screen and answers it with the model', async () => {
    const { tmux, server } = await startAgentloop('auto');
    server.push(
      {
        toolCalls: [{ name: 'everything__trigger-sampling-request', arguments: { prompt: 'a haiku', maxTokens: 20 } }],
      },
      { text: 'Leaves fall on the lake' },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Sampled.' } }] },
    );
    tmux.type('Sample something');
    tmux.press('Enter');
    // The tool reaches outside the workspace: its call is asked about first.
    await tmux.waitFor(/Let everything__trigger-sampling-request run\?/);
    tmux.press('y');
    const screen = await tmux.waitFor(/Send this to the model\?/);
    expect(screen).toContain(
      'everything__trigger-sampling-request asks to use the model (MCP server everything asks the model for a completion)',
    );
    expect(screen).toContain('system     You are a helpful test server.');
    expect(screen).toContain('user       Resource trigger-sampling-request context: a haiku');
    expect(screen).toContain('up to 20 tokens');
    tmux.press('y');
    await tmux.waitFor(/✔ Done\nSampled\.\n[\s\S]*›$/, 30_000);
    expect(server.requests[1]?.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Resource trigger-sampling-request context: a haiku' },
    ]);
    expect(server.requests[1]?.tools).toBeUndefined();
    expect(toolResult(server, 2)).toContain('"text": "Leaves fall on the lake"');
    tmux.type('/exit');
    tmux.press('Enter');
    expect(await tmux.exitStatus()).toBe(0);
  }, 60_000);
});

describe('MCP servers’ requests in agentloop run', () => {
  beforeAll(() => assertBuilt());

  it('declines the server’s elicitation: nobody can answer it', async () => {
    const workspace = terminal.workspace();
    configureEverythingMcpServer(workspace);
    const server = await terminal.server([
      { toolCalls: [{ name: 'everything__trigger-elicitation-request', arguments: {} }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Declined.' } }] },
    ]);
    const run = await runAgentloop(workspace, ['run', ...modelArgs(server.url), 'Fill in the form']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Declined.');
    expect(toolResult(server, 1)).toContain('User declined to provide the requested information.');
  }, 60_000);

  it('offers the workspace to the server as its root', async () => {
    const workspace = terminal.workspace();
    configureEverythingMcpServer(workspace);
    const server = await terminal.server([
      { toolCalls: [{ name: 'everything__get-roots-list', arguments: {} }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Listed.' } }] },
    ]);
    const run = await runAgentloop(workspace, ['run', ...modelArgs(server.url), 'List the roots']);
    expect(run.status).toBe(0);
    expect(toolResult(server, 1)).toContain(`URI: file://${workspace.project}`);
  }, 60_000);
});

// End-to-end tests of MCP prompts and resources in the built `agentloop` command: the reference
// "everything" server (over stdio) as `[mcp_servers.everything]`, its prompts run as `/everything:name`
// and its resources attached with `@everything:uri` in a live session in tmux, against a scripted model.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../test-support/cli-fixture.js';
import { configureEverythingMcpServer } from '../test-support/everything-mcp-config.js';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const PROMPT = /\n›$/;
const terminal = useTerminalTest('mcp-content');

async function startAgentloop() {
  const workspace = terminal.workspace();
  // Appended, not written over: the workspace's user configuration turns the sandbox off where
  // bubblewrap is missing, so that no warning about it comes between a command and its answer.
  configureEverythingMcpServer(workspace);
  const server = await terminal.server();
  const tmux = terminal.startTmux(
    workspace.commandLine(['--provider', 'openai', '--base-url', server.url, '--model', 'test-model']),
  );
  return { tmux, server };
}

const converse = (message: string) => ({ toolCalls: [{ name: 'converse', arguments: { message } }] });

describe.skipIf(!tmuxAvailable())('MCP prompts and resources in agentloop (tmux)', () => {
  beforeAll(() => assertBuilt());

  it('counts prompts and resources in /mcp, runs a prompt as a command and attaches a mentioned resource', async () => {
    const { tmux, server } = await startAgentloop();
    await tmux.waitFor(PROMPT);
    tmux.type('/mcp');
    tmux.press('Enter');
    const listing = await tmux.waitFor(
      /everything {2}ready {2}stdio, \d+ tools, 4 prompts, \d+ resources, 2 resource templates[\s\S]*›$/,
    );
    expect(listing).toMatch(/› \/mcp\nMCP servers \(1\)\n {2}everything {2}ready/);

    server.push(converse('Mild, 18 degrees.'));
    tmux.type('/everything:args-prompt Lyon');
    tmux.press('Enter');
    await tmux.waitFor(/Mild, 18 degrees\.\n[\s\S]*›$/);
    expect(server.requests[0].messages.at(-1)).toMatchObject({ role: 'user', content: "What's weather in Lyon?" });

    server.push(converse('It is resource 4.'));
    tmux.type('Summarise @everything:demo://resource/dynamic/text/4');
    tmux.press('Enter');
    const screen = await tmux.waitFor(/It is resource 4\.\n[\s\S]*›$/);
    expect(screen).toContain('↳ attached @everything:demo://resource/dynamic/text/4');
    expect(server.requests[1].messages.at(-1).content).toMatch(
      /^Summarise @everything:demo:\/\/resource\/dynamic\/text\/4\n\nAttached resources:\n<resource server="everything" uri="demo:\/\/resource\/dynamic\/text\/4">\nResource 4: This is a plaintext resource/,
    );

    tmux.type('/everything:args-prompt');
    tmux.press('Enter');
    await tmux.waitFor(/✗ \/everything:args-prompt <city> \[state\]: the argument city is required\.\n[\s\S]*›$/);
    expect(server.requests).toHaveLength(2);

    tmux.type('/exit');
    tmux.press('Enter');
    expect(await tmux.exitStatus()).toBe(0);
  }, 60_000);
});

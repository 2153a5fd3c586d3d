// End-to-end tests of MCP prompts and resources in the built `agentloop` command: the reference
// "everything" server (over stdio) as `[mcp_servers.everything]`, its prompts run as `/everything:name`
// and its resources attached with `@everything:uri` in a live session in tmux, against a scripted model.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../test-support/cli-fixture.js';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const requireFromMcp = createRequire(new URL('../../../mcp/package.json', import.meta.url));
const EVERYTHING = requireFromMcp.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const PROMPT = /\n›$/;
const terminal = useTerminalTest('mcp-content');

async function startAgentloop() {
  const workspace = terminal.workspace();
  const directory = join(workspace.configHome, 'agentloop');
  mkdirSync(directory, { recursive: true });
  writeFileSync(
    join(directory, 'config.toml'),
    `[mcp_servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n`,
  );
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
    await tmux.waitFor(
      /everything {2}ready {2}stdio, \d+ tools, 4 prompts, \d+ resources, 2 resource templates[\s\S]*›$/,
    );

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

// End to end: Tab at the built `agentloop` command's prompt, in tmux, completes slash commands, the
// reference "everything" MCP server's prompts as `/everything:name` and its resources as
// `@everything:uri`, against a scripted model: what Tab put in the line is what the session then runs.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../test-support/cli-fixture.js';
import { configureEverythingMcpServer } from '../test-support/everything-mcp-config.js';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { tmuxAvailable } from '../test-support/tmux-session.js';

const PROMPT = /\n›$/;
const terminal = useTerminalTest('completion');

const converse = (message: string) => ({ toolCalls: [{ name: 'converse', arguments: { message } }] });

describe.skipIf(!tmuxAvailable())('Tab completion at the prompt (tmux)', () => {
  beforeAll(() => assertBuilt());

  it('completes a command, an MCP prompt and a resource mention, and lists several matches', async () => {
    const workspace = terminal.workspace();
    configureEverythingMcpServer(workspace);
    const server = await terminal.server();
    const tmux = terminal.startTmux(
      workspace.commandLine(['--provider', 'openai', '--base-url', server.url, '--model', 'test-model']),
    );
    await tmux.waitFor(PROMPT);
    // Completion goes without the servers until the agent is made: wait until they are ready.
    tmux.type('/mcp');
    tmux.press('Enter');
    await tmux.waitFor(/everything {2}ready[\s\S]*›$/);

    tmux.type('/he');
    tmux.press('Tab');
    await tmux.waitFor(/\n› \/help$/);
    tmux.press('Enter');
    await tmux.waitFor(/› \/help \nCommands\n[\s\S]*\/exit[\s\S]*›$/);

    tmux.type('Summarise @ev');
    tmux.press('Tab');
    await tmux.waitFor(/\n› Summarise @everything:$/);
    // The resources and templates have a common start: Tab extends the word to it, a second Tab lists them.
    tmux.press('Tab');
    await tmux.waitFor(/\n› Summarise @everything:demo:\/\/resource\/$/);
    tmux.press('Tab');
    const listing = await tmux.waitFor(/@everything:demo:\/\/resource\/dynamic\/text\/\{resourceId\}[\s\S]*›/);
    expect(listing).toContain('@everything:demo://resource/static/document/features.md');
    tmux.type('static/document/fe');
    tmux.press('Tab');
    await tmux.waitFor(/\n› Summarise @everything:demo:\/\/resource\/static\/document\/features\.md$/);
    server.push(converse('It lists the features.'));
    tmux.press('Enter');
    await tmux.waitFor(/It lists the features\.\n[\s\S]*›$/);
    expect(server.requests[0].messages.at(-1).content).toContain(
      '<resource server="everything" uri="demo://resource/static/document/features.md">',
    );

    tmux.type('/ev');
    tmux.press('Tab');
    await tmux.waitFor(/\n› \/everything:$/);
    tmux.type('ar');
    tmux.press('Tab');
    await tmux.waitFor(/\n› \/everything:args-prompt$/);
    server.push(converse('Mild, 18 degrees.'));
    tmux.type('Lyon');
    tmux.press('Enter');
    await tmux.waitFor(/Mild, 18 degrees\.\n[\s\S]*›$/);
    expect(server.requests[1].messages.at(-1)).toMatchObject({ role: 'user', content: "What's weather in Lyon?" });

    tmux.type('/exit');
    tmux.press('Enter');
    expect(await tmux.exitStatus()).toBe(0);
  }, 60_000);
});

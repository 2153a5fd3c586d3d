// End-to-end tests of MCP servers in the built `agentloop` command: a `[mcp_servers.notes]` stdio server
// (the SDK's McpServer in test-support/mcp-notes-server.mjs) in the user configuration, `/mcp` in a live
// session in tmux, `agentloop mcp list` as a child process, and no server process outliving the command
// (checked by the pids the server notes when it starts). They import nothing from the sources.
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type CliWorkspace } from '../test-support/cli-fixture.js';
import { configureNotesMcpServer, isAlive, startedPids } from '../test-support/mcp-notes-config.js';
import { runAgentloop } from '../test-support/run-agentloop.js';
import { useTerminalTest } from '../test-support/terminal-test.js';
import { type TmuxSession, tmuxAvailable } from '../test-support/tmux-session.js';

const PROMPT = /\n›$/;
const terminal = useTerminalTest('mcp');

/**
 * The processes of these that still run: none should once the command has exited (a second's grace, polled,
 * for the kernel to reap an ended process on a busy machine; an orphan runs on for good).
 */
async function survivors(pids: number[], timeoutMs = 1_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return pids.filter(isAlive);
}

/** Starts `agentloop` in tmux against a scripted server, with the notes MCP server configured. */
async function startAgentloop(configure?: (at: CliWorkspace) => void) {
  const workspace = terminal.workspace();
  const { pidFile } = configureNotesMcpServer(workspace);
  configure?.(workspace);
  const server = await terminal.server();
  const tmux = terminal.startTmux(
    workspace.commandLine(['--provider', 'openai', '--base-url', server.url, '--model', 'test-model']),
  );
  return { tmux, server, pidFile };
}

/** Adds `[mcp_servers.broken]`, a stdio server that says why on stderr and exits before its handshake. */
function configureBrokenMcpServer(at: CliWorkspace): void {
  const script = 'process.stderr.write("GITHUB_TOKEN is not set\\n"); process.exit(3)';
  at.appendUserConfig(
    `\n[mcp_servers.broken]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ["-e", ${JSON.stringify(script)}]\n`,
  );
}

const BROKEN_WARNING =
  'MCP server "broken" failed to start: it closed the connection during the MCP handshake (it exited with code 3); it said: GITHUB_TOKEN is not set. Its tools are missing;';

/** Types `/mcp` and returns the server's pid from its listing, after checking the listing. */
async function listServers(session: TmuxSession): Promise<number> {
  session.type('/mcp');
  session.press('Enter');
  const screen = await session.waitFor(
    /notes {2}ready {2}stdio, 3 tools, pid \d+\n\s+lookup_note, count_notes, wait_for_note\n[\s\S]*›$/,
  );
  expect(screen).toContain('MCP servers (1)');
  return Number(/notes {2}ready {2}stdio, 3 tools, pid (\d+)/.exec(screen)?.[1]);
}

describe.skipIf(!tmuxAvailable())('MCP servers in agentloop (tmux)', () => {
  beforeAll(() => assertBuilt());

  it('lists the server with /mcp, calls its tool, and ends its process on /exit', async () => {
    const { tmux, server, pidFile } = await startAgentloop();
    await tmux.waitFor(PROMPT);
    const pid = await listServers(tmux);
    expect(startedPids(pidFile)).toEqual([pid]);
    expect(isAlive(pid)).toBe(true);

    server.push(
      { toolCalls: [{ name: 'notes__lookup_note', arguments: { title: 'shopping' } }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'Buy oat milk.' } }] },
    );
    tmux.type('What is on my shopping note?');
    tmux.press('Enter');
    const screen = await tmux.waitFor(/✔ Done\nBuy oat milk\.\n[\s\S]*›$/);
    expect(screen).toMatch(
      /✓ notes__lookup_note\(title: "shopping"\) (?:\d+ ms|\d+\.\d s|\d+ m \d\d s) → note shopping: buy oat milk/,
    );
    expect(server.requests[0].tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(
      expect.arrayContaining(['notes__lookup_note', 'notes__count_notes']),
    );
    expect(server.requests[1].messages.at(-1)).toMatchObject({
      role: 'tool',
      content: 'note shopping: buy oat milk',
    });

    tmux.type('/exit');
    tmux.press('Enter');
    expect(await tmux.exitStatus()).toBe(0);
    expect(await survivors(startedPids(pidFile))).toEqual([]);
  }, 60_000);

  it('ends the server process when the session ends with Ctrl-C', async () => {
    const { tmux, pidFile } = await startAgentloop();
    await tmux.waitFor(PROMPT);
    const pid = await listServers(tmux);
    expect(isAlive(pid)).toBe(true);
    tmux.press('C-c');
    expect(await tmux.exitStatus()).toBe(0);
    expect(startedPids(pidFile)).toEqual([pid]);
    expect(await survivors([pid])).toEqual([]);
  }, 60_000);

  it('warns at start, before the first task, of a server that failed to start, naming it and why', async () => {
    const { tmux } = await startAgentloop(configureBrokenMcpServer);
    const screen = await tmux.waitFor(/shows more\.\n[\s\S]*›$/);
    // The prompt drawn while the agent was being built gives way to the warning, and is drawn again below it.
    expect(
      screen
        .split('\n')
        .slice(-3)
        .map((line) => line.trimEnd()),
    ).toEqual(['›', `⚠ ${BROKEN_WARNING} /mcp shows more.`, '›']);
    tmux.press('C-c');
    expect(await tmux.exitStatus()).toBe(0);
  }, 60_000);

  it('cancels a hanging MCP call with Ctrl-C, and ends the server with the second', async () => {
    const { tmux, server, pidFile } = await startAgentloop();
    server.push(
      { toolCalls: [{ name: 'notes__wait_for_note', arguments: {} }] },
      { toolCalls: [{ name: 'converse', arguments: { message: 'Stopped waiting.' } }] },
    );
    await tmux.waitFor(PROMPT);
    tmux.type('Wait for a note');
    tmux.press('Enter');
    await tmux.waitFor('notes__wait_for_note');
    tmux.press('C-c');
    const screen = await tmux.waitFor(/Cancelled\. The conversation is kept\. Ctrl-C again or Ctrl-D exits\.\n›$/);
    expect(screen).toMatch(/✗ notes__wait_for_note\(\) (?:\d+ ms|\d+\.\d s|\d+ m \d\d s) → error: /);
    const [pid] = startedPids(pidFile);
    // The server outlives the cancelled call (only the call ends), and the session goes on with it.
    expect(isAlive(pid as number)).toBe(true);
    tmux.type('Are you there?');
    tmux.press('Enter');
    await tmux.waitFor(/Stopped waiting\.\n›$/);
    // The cancelled call got a result, so the conversation could go on.
    const toolMessage = server.requests[1].messages.find((message: { role: string }) => message.role === 'tool');
    expect(toolMessage.tool_call_id).toBe('call_1_1');
    expect(toolMessage.content).toMatch(/cancel/i);
    tmux.press('C-c');
    expect(await tmux.exitStatus()).toBe(0);
    expect(startedPids(pidFile)).toEqual([pid]);
    expect(await survivors(startedPids(pidFile))).toEqual([]);
  }, 60_000);
});

describe('agentloop mcp list', () => {
  beforeAll(() => assertBuilt());

  it('shows the configured server, its state and its tools, and ends its process', async () => {
    const workspace = terminal.workspace();
    const { pidFile } = configureNotesMcpServer(workspace);

    const run = await runAgentloop(workspace, ['mcp', 'list']);

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const [pid] = startedPids(pidFile);
    expect(run.stdout).toBe(
      `MCP servers (1)\n  notes  ready  stdio, 3 tools, pid ${pid}\n    lookup_note, count_notes, wait_for_note\n`,
    );
    expect(await survivors(startedPids(pidFile))).toEqual([]);
  }, 60_000);
});

describe('agentloop run with a server that fails to start', () => {
  beforeAll(() => assertBuilt());

  it('warns on stderr, naming the server and why, and runs the task with the tools it has', async () => {
    const workspace = terminal.workspace();
    configureBrokenMcpServer(workspace);
    const server = await terminal.server([{ toolCalls: [{ name: 'task_completion', arguments: { result: 'ok' } }] }]);
    const connection = ['--provider', 'openai', '--base-url', server.url, '--model', 'test-model'];

    const run = await runAgentloop(workspace, ['run', ...connection, 'Say ok']);

    expect(run.status).toBe(0);
    expect(run.stdout).toBe('ok\n');
    expect(run.stderr.split('\n').filter((line) => line.includes('MCP server'))).toEqual([
      `⚠ ${BROKEN_WARNING} \`agentloop mcp list\` shows more.`,
    ]);
  }, 60_000);
});

// The editor's MCP servers, connected through @agentloop/mcp: their tools join the session's agent, and
// they end with the session.
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useEditorTest } from '../test-support/editor-test.js';
import { noProcessesIn, processesIn } from '../test-support/processes-in.js';
import { complete, scriptedExecutor } from '../test-support/scripted-executor.js';
import { createTempProject } from '../test-support/temp-project.js';
import { mcpServersConfig } from './editor-mcp-servers.js';

const ECHO_SERVER = fileURLToPath(new URL('../test-support/echo-mcp-server.mjs', import.meta.url));

const fixture = useEditorTest();

describe('mcpServersConfig', () => {
  it('turns the editor’s servers into @agentloop/mcp’s configuration, with valid, distinct names', () => {
    expect(
      mcpServersConfig(
        [
          { name: 'My Server', command: 'srv', args: ['--stdio'], env: [{ name: 'TOKEN', value: 't' }] },
          {
            type: 'http',
            name: 'docs',
            url: 'https://docs.example.com/mcp',
            headers: [{ name: 'Authorization', value: 'Bearer k' }],
          },
          { type: 'sse', name: 'my__server', url: 'https://old.example.com/sse', headers: [] },
          { name: 'local', command: 'x', args: [], env: [] },
          { name: '***', command: 'y', args: [], env: [] },
        ],
        '/project',
      ),
    ).toEqual({
      My_Server: { command: 'srv', args: ['--stdio'], env: { TOKEN: 't' }, cwd: '/project' },
      docs: {
        url: 'https://docs.example.com/mcp',
        headers: { Authorization: 'Bearer k' },
        transport: 'streamable-http',
      },
      my_server: { url: 'https://old.example.com/sse', headers: {}, transport: 'sse' },
      local_server: { command: 'x', args: [], env: {}, cwd: '/project' },
      server: { command: 'y', args: [], env: {}, cwd: '/project' },
    });
  });
});

describe.skipIf(process.platform !== 'linux')('the editor’s MCP servers', () => {
  it('gives their tools to the session’s agent, started in the session’s directory, and ends them with it', async () => {
    const { executor, made } = scriptedExecutor(
      [
        [
          { toolCalls: [{ name: 'Echo_Tools__echo', id: 'echo-1', arguments: { text: 'hello' } }] },
          complete('Echoed.'),
        ],
      ],
      { defaultMode: 'auto' },
    );
    const editor = await fixture.connect(executor);
    const { sessionId } = await editor.agent.request('session/new', {
      cwd: fixture.project.dir,
      mcpServers: [
        {
          name: 'Echo Tools',
          command: process.execPath,
          args: [ECHO_SERVER],
          env: [{ name: 'ECHO_GREETING', value: 'hi' }],
        },
      ],
    });
    expect(made.agents[0]!.tools.has('Echo_Tools__echo')).toBe(true);
    expect(await editor.prompt(sessionId, 'Echo hello.')).toMatchObject({ stopReason: 'end_turn' });
    expect(editor.updates(sessionId)).toContainEqual(
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'echo-1',
        status: 'completed',
        rawOutput: `echo: hello (from ${fixture.project.dir}, ECHO_GREETING=hi)`,
      }),
    );
    // The server runs in the session's directory, until the session closes.
    expect(processesIn(fixture.project.dir)).toHaveLength(1);
    await editor.agent.request('session/close', { sessionId });
    expect(made.disposed).toBe(1);
    expect(await noProcessesIn(fixture.project.dir)).toEqual([]);
  });

  it('offers them the session’s directory and the editor’s additional directories as roots', async () => {
    const extra = createTempProject();
    try {
      const { executor } = scriptedExecutor(
        [[{ toolCalls: [{ name: 'echo__roots', id: 'roots-1', arguments: {} }] }, complete('Listed.')]],
        { defaultMode: 'auto' },
      );
      const editor = await fixture.connect(executor);
      const { sessionId } = await editor.agent.request('session/new', {
        cwd: fixture.project.dir,
        additionalDirectories: [extra.dir],
        mcpServers: [{ name: 'echo', command: process.execPath, args: [ECHO_SERVER], env: [] }],
      });
      expect(await editor.prompt(sessionId, 'List the roots.')).toMatchObject({ stopReason: 'end_turn' });
      expect(editor.updates(sessionId)).toContainEqual(
        expect.objectContaining({
          toolCallId: 'roots-1',
          status: 'completed',
          rawOutput: [
            `${basename(fixture.project.dir)} ${pathToFileURL(fixture.project.dir).href}`,
            `${basename(extra.dir)} ${pathToFileURL(extra.dir).href}`,
          ].join('\n'),
        }),
      );
      await editor.agent.request('session/close', { sessionId });
    } finally {
      extra.remove();
    }
  });

  it('advertises HTTP and SSE servers, which it can reach', async () => {
    const { executor } = scriptedExecutor([]);
    const editor = await fixture.connect(executor);
    const answer = await editor.agent.request('initialize', { protocolVersion: 1 });
    expect(answer.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
  });

  it('leaves them to the factory when told to, and advertises stdio servers only', async () => {
    const { executor, made } = scriptedExecutor([[]], { mcpServers: 'factory' });
    const editor = await fixture.connect(executor);
    const answer = await editor.agent.request('initialize', { protocolVersion: 1 });
    expect(answer.agentCapabilities?.mcpCapabilities).toEqual({ http: false, sse: false });
    const servers = [{ name: 'echo', command: process.execPath, args: [ECHO_SERVER], env: [] }];
    await editor.agent.request('session/new', { cwd: fixture.project.dir, mcpServers: servers });
    expect(made.setups[0]!.mcpServers).toEqual(servers);
    expect(made.agents[0]!.tools.has('echo__echo')).toBe(false);
  });
});

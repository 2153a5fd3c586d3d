import { DefaultAgent, defineTool } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectMcpServers, type McpServers } from './mcp-servers.js';
import { fixtureServer, isAlive } from './test-support/servers.js';

// A DefaultAgent calling a real MCP server's tool, in native mode and in XML mode, beside a local tool of
// the same name.
const localEcho = defineTool({
  name: 'echo',
  description: 'The local echo.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `local: ${text}`,
});

let mcp: McpServers | undefined;
afterEach(async () => {
  const pids = mcp?.status().flatMap((status) => (status.pid ? [status.pid] : [])) ?? [];
  await mcp?.close();
  expect(pids.filter(isAlive)).toEqual([]);
});

async function agentWith(provider: ScriptedProvider, toolProtocol: 'native' | 'xml') {
  mcp = await connectMcpServers({ fixture: fixtureServer() });
  const agent = new DefaultAgent(provider, { toolProtocol, tools: [localEcho] });
  mcp.attach(agent.tools);
  const results: { name: string; content: string }[] = [];
  const record = (event: { name: string; content: string }) => {
    if (event.name !== 'task_completion') results.push({ name: event.name, content: event.content });
  };
  agent.on('tool-result', record);
  agent.on('tool-result-error', record);
  return { agent, results };
}

const xmlCall = (server: string, tool: string, args: unknown) =>
  `<tool>\n${JSON.stringify({ server_name: server, tool_name: tool, arguments: args })}\n</tool>`;

describe('an agent with an MCP server', () => {
  it('calls the server’s tool by its native name, and the local tool by its own', async () => {
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { name: 'fixture__echo', arguments: { text: 'a' } },
          { name: 'echo', arguments: { text: 'b' } },
        ],
      },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
    ]);
    const { agent, results } = await agentWith(provider, 'native');
    expect((await agent.run('go')).exit).toBe('task_completion');
    // The two calls run at once, so either may answer first.
    expect(results).toHaveLength(2);
    expect(results).toEqual(
      expect.arrayContaining([
        { name: 'fixture__echo', content: 'echo: a' },
        { name: 'echo', content: 'local: b' },
      ]),
    );
    expect(provider.requests[0]?.tools?.map((tool) => tool.name)).toContain('fixture__echo');
    provider.assertComplete();
  });

  it('routes XML calls by server_name, and answers an unknown server with what exists', async () => {
    const provider = new ScriptedProvider(
      [
        { text: xmlCall('fixture', 'echo', { text: 'x' }) },
        { text: xmlCall('local', 'echo', { text: 'y' }) },
        { text: xmlCall('github', 'echo', { text: 'z' }) },
        { text: xmlCall('local', 'task_completion', { result: 'done' }) },
      ],
      { capabilities: { nativeTools: false } },
    );
    const { agent, results } = await agentWith(provider, 'xml');
    expect((await agent.run('go')).exit).toBe('task_completion');
    expect(results).toEqual([
      { name: 'fixture__echo', content: 'echo: x' },
      { name: 'echo', content: 'local: y' },
      {
        name: 'echo',
        content:
          'Invalid call of tool "echo": There is no server "github". The servers are "local", "fixture" ("local" is your own tools).',
      },
    ]);
    const prompt = provider.requests[0]?.systemPrompt ?? '';
    expect(prompt).toContain('## Server "fixture"');
    expect(prompt).toContain('"server_name": "fixture",\n  "tool_name": "echo"');
    provider.assertComplete();
  });
});

import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServers, type McpServers } from '../mcp-servers.js';
import { everythingServer, isAlive } from '../test-support/servers.js';

// A DefaultAgent in the `ask` approval mode reading the everything server's resources with read_resource.
let mcp: McpServers | undefined;
afterEach(async () => {
  const pids = mcp?.status().flatMap((status) => (status.pid ? [status.pid] : [])) ?? [];
  await mcp?.close();
  expect(pids.filter(isAlive)).toEqual([]);
});

describe('read_resource in an agent', () => {
  it('runs without asking for approval, and gives the model the resource’s text', async () => {
    mcp = await connectMcpServers({ everything: everythingServer() });
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { name: 'read_resource', arguments: { server: 'everything', uri: 'demo://resource/dynamic/text/5' } },
        ],
      },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'read' } }] },
    ]);
    const agent = new DefaultAgent(provider, { approval: 'ask', toolProtocol: 'native' });
    mcp.attach(agent.tools);
    const asked: string[] = [];
    agent.on('approval-requested', (event) => asked.push(event.name));
    const results: string[] = [];
    agent.on('tool-result', (event) => results.push(`${event.name}: ${event.content}`));

    expect((await agent.run('What does resource 5 say?')).exit).toBe('task_completion');
    expect(asked).toEqual([]);
    expect(results[0]).toMatch(/^read_resource: Resource 5: This is a plaintext resource created at /);
    expect(provider.requests[0]?.tools?.map((tool) => tool.name)).toContain('read_resource');
  });
});

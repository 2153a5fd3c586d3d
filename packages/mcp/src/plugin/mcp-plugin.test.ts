import { createContainer, DefaultAgent, disposeContainer, resolveAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, isAlive } from '../test-support/servers.js';
import { liveChildCount } from '../transport/live-children.js';
import { mcpPlugin } from './mcp-plugin.js';

afterEach(() => {
  expect(liveChildCount()).toBe(0);
});

describe('mcpPlugin', () => {
  it('starts the servers in init, gives the agent their tools, and ends them on disposeContainer', async () => {
    const plugin = mcpPlugin({ fixture: fixtureServer() });
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'fixture__echo', arguments: { text: 'through the container' } }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
    ]);
    const container = await createContainer({ provider, plugins: [plugin] });
    const pid = plugin.servers?.status()[0]?.pid as number;
    try {
      const agent = resolveAgent(container);
      expect(agent).toBeInstanceOf(DefaultAgent);
      expect(agent.tools.get('fixture__echo')?.tool.server).toEqual({ name: 'fixture', toolName: 'echo' });
      const results: string[] = [];
      agent.on('tool-result', (event) => results.push(event.content));
      const result = await agent.run('echo something');
      expect(result.exit).toBe('task_completion');
      expect(results[0]).toBe('echo: through the container');
      expect(isAlive(pid)).toBe(true);
    } finally {
      await disposeContainer(container);
    }
    expect(isAlive(pid)).toBe(false);
    expect(plugin.servers).toBeUndefined();
  });

  it('refuses a configuration it cannot use before anything starts', () => {
    expect(() => mcpPlugin({ 'bad name': { command: 'x' } })).toThrow(/MCP server "bad name": a server name/);
  });
});

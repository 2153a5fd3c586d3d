import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContainer, disposeContainer, resolveAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { mcpSessionPlugins } from '../mcp/index.js';
import { createStyle } from '../render/index.js';
import { isAlive } from '../test-support/mcp-notes-config.js';
import { MemoryOutput } from '../test-support/memory-output.js';
import { mcpCommand } from './mcp-command.js';
import type { SlashContext } from './slash-command.js';

const FIXTURE_SERVER = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../../mcp/src/test-support/stdio-fixture-server.mjs',
);

describe('/mcp', () => {
  it('lists the session’s servers and their tools; disposing the session ends them', async () => {
    const plugins = await mcpSessionPlugins(
      { fixture: { command: process.execPath, args: [FIXTURE_SERVER], file: '/config.toml' } },
      {},
    );
    const container = await createContainer({ provider: new ScriptedProvider([]), plugins });
    const output = new MemoryOutput();
    let pid = 0;
    try {
      const agent = resolveAgent(container);
      expect(agent.tools.has('fixture__echo')).toBe(true);
      await mcpCommand.run('', { agent, output, style: createStyle(false) } as unknown as SlashContext);
      const [heading, server, tools] = output.text.split('\n');
      expect(heading).toBe('MCP servers (1)');
      expect(server).toMatch(/^ {2}fixture {2}ready {2}stdio, 8 tools, pid \d+$/);
      expect(tools).toContain('echo, fail, image');
      pid = Number(/pid (\d+)/.exec(server ?? '')?.[1]);
      expect(isAlive(pid)).toBe(true);
    } finally {
      await disposeContainer(container);
    }
    expect(isAlive(pid)).toBe(false);
  });

  it('says that none is configured in a session without servers', async () => {
    const container = await createContainer({
      provider: new ScriptedProvider([]),
      plugins: await mcpSessionPlugins(undefined, {}),
    });
    const output = new MemoryOutput();
    await mcpCommand.run('', {
      agent: resolveAgent(container),
      output,
      style: createStyle(false),
    } as unknown as SlashContext);
    expect(output.text).toContain('No MCP servers are configured');
    await disposeContainer(container);
  });
});

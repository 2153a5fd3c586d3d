import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContainer, disposeContainer, resolveAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { mcpSessionPlugins } from './mcp-session-plugin.js';
import { mcpStartWarnings } from './mcp-start-warnings.js';

const FIXTURE_SERVER = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../../mcp/src/test-support/stdio-fixture-server.mjs',
);

describe('mcpStartWarnings', () => {
  it('names each server that failed to start and why, and none that started', async () => {
    const plugins = await mcpSessionPlugins(
      {
        fixture: { command: process.execPath, args: [FIXTURE_SERVER], file: '/config.toml' },
        broken: {
          command: process.execPath,
          args: ['-e', 'process.stderr.write("GITHUB_TOKEN is not set\\n"); process.exit(3)'],
          file: '/config.toml',
        },
      },
      {},
    );
    const container = await createContainer({ provider: new ScriptedProvider([]), plugins });
    try {
      const warnings = mcpStartWarnings(resolveAgent(container).tools, '/mcp');
      expect(warnings).toEqual([
        'MCP server "broken" failed to start: it closed the connection during the MCP handshake (it exited with code 3); it said: GITHUB_TOKEN is not set. Its tools are missing; /mcp shows more.',
      ]);
    } finally {
      await disposeContainer(container);
    }
  });

  it('has nothing to say in a session without servers', async () => {
    const container = await createContainer({ provider: new ScriptedProvider([]), plugins: [] });
    expect(mcpStartWarnings(resolveAgent(container).tools, '/mcp')).toEqual([]);
    await disposeContainer(container);
  });
});

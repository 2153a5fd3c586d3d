#!/usr/bin/env node
// A stdio MCP server for the tests, on the SDK's McpServer: `node stdio-fixture-server.mjs [name]`.
// FIXTURE_LOG names a file it notes events in (a cancelled call); FIXTURE_FAIL_START=1 makes it exit at
// once with a message on stderr, as a misconfigured server does.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fileLog, registerFixtureTools } from './fixture-tools.mjs';

if (process.env.FIXTURE_FAIL_START === '1') {
  process.stderr.write('fixture: missing FIXTURE_TOKEN, cannot start\n');
  process.exit(2);
}
const server = new McpServer({ name: process.argv[2] ?? 'fixture', version: '1.0.0' });
registerFixtureTools(server, fileLog);
await server.connect(new StdioServerTransport());

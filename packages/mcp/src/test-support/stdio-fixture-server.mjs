#!/usr/bin/env node

import { existsSync } from 'node:fs';
// A stdio MCP server for the tests, on the SDK's McpServer: `node stdio-fixture-server.mjs [name]`.
// FIXTURE_LOG names a file it notes events in (a cancelled call); FIXTURE_FAIL_START=1 makes it exit at
// once with a message on stderr, as a misconfigured server does; FIXTURE_START_WHEN names a file that must
// exist before it starts (a server that is not ready yet: it fails as above until the file appears).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fileLog, registerFixtureTools } from './fixture-tools.mjs';

const startWhen = process.env.FIXTURE_START_WHEN;
if (process.env.FIXTURE_FAIL_START === '1' || (startWhen !== undefined && !existsSync(startWhen))) {
  process.stderr.write('fixture: missing FIXTURE_TOKEN, cannot start\n');
  process.exit(2);
}
const server = new McpServer({ name: process.argv[2] ?? 'fixture', version: '1.0.0' });
registerFixtureTools(server, fileLog);
await server.connect(new StdioServerTransport());

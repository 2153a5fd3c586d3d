#!/usr/bin/env node
// A stdio MCP server for the providers' end-to-end tests, on the SDK's McpServer: one tool, `forecast`,
// that notes each call's arguments as a JSON line in the file MCP_CALL_LOG names, so that a test sees
// what the server itself received (not only what the client sent).
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'forecast', version: '1.0.0' });
server.registerTool(
  'forecast',
  { description: 'The weather forecast for a city.', inputSchema: { city: z.string(), days: z.number() } },
  async (args) => {
    if (process.env.MCP_CALL_LOG) appendFileSync(process.env.MCP_CALL_LOG, `${JSON.stringify(args)}\n`);
    return { content: [{ type: 'text', text: `${args.city}: sunny for ${args.days} days (from MCP)` }] };
  },
);
await server.connect(new StdioServerTransport());

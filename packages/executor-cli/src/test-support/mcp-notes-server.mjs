#!/usr/bin/env node
// A stdio MCP server for the CLI's end-to-end tests, on the SDK's McpServer, with three read-only tools
// (one waits until its call is cancelled). It appends its pid to the file MCP_PID_FILE names when it
// starts, so that a test can check that no server process outlives the command that started it.
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

if (process.env.MCP_PID_FILE) appendFileSync(process.env.MCP_PID_FILE, `${process.pid}\n`);
const server = new McpServer({ name: 'notes', version: '1.0.0' });
const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
server.registerTool(
  'lookup_note',
  { description: 'The note with this title.', inputSchema: { title: z.string() }, annotations: readOnly },
  async ({ title }) => ({ content: [{ type: 'text', text: `note ${title}: buy oat milk` }] }),
);
server.registerTool('count_notes', { description: 'How many notes there are.', annotations: readOnly }, async () => ({
  content: [{ type: 'text', text: '3 notes' }],
}));
server.registerTool(
  'wait_for_note',
  { description: 'Waits until a note arrives (none does).', annotations: readOnly },
  // A tool without an input schema gets only `extra` (the SDK's McpServer passes no arguments).
  (extra) =>
    new Promise((_resolve, reject) => {
      extra.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
    }),
);
await server.connect(new StdioServerTransport());

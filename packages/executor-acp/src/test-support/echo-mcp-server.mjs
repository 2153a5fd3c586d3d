#!/usr/bin/env node
// A stdio MCP server for the tests, on the MCP SDK: `echo`, which also says which directory the server
// was started in (the session's), and `roots`, which lists the roots the client offers.
// `node echo-mcp-server.mjs`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.registerTool(
  'echo',
  {
    description: 'Echoes its text.',
    inputSchema: { text: z.string() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ text }) => ({
    content: [
      { type: 'text', text: `echo: ${text} (from ${process.cwd()}, ECHO_GREETING=${process.env.ECHO_GREETING})` },
    ],
  }),
);
server.registerTool(
  'roots',
  { description: 'Lists the client’s roots.', annotations: { readOnlyHint: true, openWorldHint: false } },
  async () => {
    const { roots } = await server.server.listRoots();
    return { content: [{ type: 'text', text: roots.map((root) => `${root.name} ${root.uri}`).join('\n') }] };
  },
);
await server.connect(new StdioServerTransport());

#!/usr/bin/env node

// A stdio MCP server with one prompt and nothing else (no tools, no resources), as prompt libraries are.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'prompt-only', version: '1.0.0' });
server.registerPrompt('standup', { description: 'Writes the daily stand-up note.' }, () => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'Write my stand-up note.' } }],
}));
await server.connect(new StdioServerTransport());

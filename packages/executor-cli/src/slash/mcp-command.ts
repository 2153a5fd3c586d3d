import { formatMcpServers } from '../mcp/format-mcp-servers.js';
import { mcpServersOf } from '../mcp/mcp-session-plugin.js';
import { outputWidth } from '../render/index.js';
import type { SlashCommand } from './slash-command.js';

/** `/mcp`: the session's MCP servers, their state and their tools. */
export const mcpCommand: SlashCommand = {
  name: 'mcp',
  usage: '/mcp',
  summary: 'List the MCP servers, their state and their tools',
  run(_args, { agent, output, style }) {
    const servers = mcpServersOf(agent.tools);
    output.write(formatMcpServers(servers?.status() ?? [], [], style, outputWidth(output)));
  },
};

export { formatMcpServers } from './format-mcp-servers.js';
export type { McpListOptions } from './mcp-list-command.js';
export { mcpList } from './mcp-list-command.js';
export { mcpServersOf, mcpSessionPlugins } from './mcp-session-plugin.js';

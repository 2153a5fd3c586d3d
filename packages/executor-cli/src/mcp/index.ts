export { formatMcpServers } from './format-mcp-servers.js';
export type { McpListOptions } from './mcp-list-command.js';
export { mcpList } from './mcp-list-command.js';
export type { McpLoginOptions } from './mcp-login-command.js';
export { mcpLogin, mcpLogout } from './mcp-login-command.js';
export { mcpServersOf, mcpSessionPlugins } from './mcp-session-plugin.js';

export { checkServerConfig } from './check-server-config.js';
export type {
  McpHttpServerConfig,
  McpServerCommonConfig,
  McpServerConfig,
  McpServersConfig,
  McpStdioServerConfig,
} from './mcp-server-config.js';
export { isStdioServerConfig } from './mcp-server-config.js';

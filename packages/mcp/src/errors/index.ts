export type { McpServerErrorCode } from './mcp-server-error.js';
export { McpServerError } from './mcp-server-error.js';

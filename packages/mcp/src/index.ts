// @agentloop/mcp: Model Context Protocol servers' tools as agentloop tools. A tool package like any
// other: it depends on @agentloop/tools and the official MCP SDK, never on @agentloop/core.

export type {
  LoginMcpServerOptions,
  LoginMcpServerResult,
  McpOAuthConfig,
  McpOAuthOptions,
  McpStoredCredentials,
  McpTokenStore,
  StoredOAuthProviderOptions,
} from './auth/index.js';
export {
  FileTokenStore,
  loginMcpServer,
  logoutMcpServer,
  MemoryTokenStore,
  resourceKey,
  StoredOAuthProvider,
} from './auth/index.js';
export type {
  McpHttpServerConfig,
  McpServerCommonConfig,
  McpServerConfig,
  McpServersConfig,
  McpStdioServerConfig,
} from './config/index.js';
export type {
  McpAuthStatus,
  McpServerState,
  McpServerStatus,
  McpToolSummary,
  McpTransportKind,
} from './connection/mcp-server-status.js';
export type { RestartBackoff } from './connection/restart-backoff.js';
export type { McpServerErrorCode } from './errors/index.js';
export { McpServerError } from './errors/index.js';
export type { ConnectMcpServersOptions, McpResourceSubscription, ToolRegistryTarget } from './mcp-servers.js';
export { attachedMcpServers, connectMcpServers, McpServers } from './mcp-servers.js';
export { NATIVE_TOOL_NAME, nativeToolName, SERVER_SEPARATOR } from './naming/native-tool-name.js';
export type { McpPlugin, McpPluginContainer } from './plugin/mcp-plugin.js';
export { mcpPlugin } from './plugin/mcp-plugin.js';
export type {
  McpPromptArgument,
  McpPromptMessage,
  McpPromptResult,
  McpPromptSummary,
} from './prompts/index.js';
export { parsePromptArguments, promptInputText } from './prompts/index.js';
export { directoryRoot, type McpRoot } from './requests/index.js';
export type {
  McpResourceContents,
  McpResourceSummary,
  McpResourceTemplateSummary,
  ResourceTextWindow,
} from './resources/index.js';
export {
  DEFAULT_MAX_RESOURCE_BYTES,
  READ_RESOURCE_TOOL_NAME,
  resourceContentsText,
  resourceContentsValue,
} from './resources/index.js';
export { formatCallResult } from './results/format-call-result.js';

import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpHttpServerConfig } from '../config/mcp-server-config.js';
import type { McpTokenStore } from './mcp-token-store.js';

/** How `connectMcpServers` authorizes itself to HTTP servers that want OAuth. */
export interface McpOAuthOptions {
  /**
   * The app's own OAuth provider (the SDK's `OAuthClientProvider`: its own storage, and its own
   * redirect of the user to the authorization URL), for every HTTP server or chosen per server;
   * undefined from the function leaves that server to the built-in provider.
   */
  provider?:
    | OAuthClientProvider
    | ((server: { name: string; config: McpHttpServerConfig }) => OAuthClientProvider | undefined);
  /**
   * Where the built-in provider keeps tokens and client registrations (`FileTokenStore` for a file).
   * Default: in memory, for the life of the process.
   */
  store?: McpTokenStore;
}

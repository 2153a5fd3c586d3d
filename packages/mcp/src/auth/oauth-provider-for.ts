import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpHttpServerConfig } from '../config/mcp-server-config.js';
import type { McpOAuthOptions } from './mcp-oauth-options.js';
import type { MemoryTokenStore } from './mcp-token-store.js';
import { StoredOAuthProvider } from './stored-oauth-provider.js';

/**
 * The OAuth provider of one HTTP server, or none where the configuration brings its own `Authorization`
 * header (static credentials win; OAuth would only replace them). The app's provider when it gives one,
 * else the built-in one over the app's store (in memory by default).
 */
export function oauthProviderFor(
  name: string,
  config: McpHttpServerConfig,
  options: McpOAuthOptions | undefined,
  fallbackStore: MemoryTokenStore,
): OAuthClientProvider | undefined {
  const staticCredentials = Object.keys(config.headers ?? {}).some(
    (header) => header.toLowerCase() === 'authorization',
  );
  if (staticCredentials && !config.oauth) return undefined;
  const provider = options?.provider;
  const own = typeof provider === 'function' ? provider({ name, config }) : provider;
  if (own) return own;
  return new StoredOAuthProvider({
    serverName: name,
    serverUrl: config.url,
    ...(config.oauth ? { config: config.oauth } : {}),
    store: options?.store ?? fallbackStore,
  });
}

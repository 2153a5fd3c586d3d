import type { McpHttpServerConfig } from '../config/mcp-server-config.js';
import { type McpTokenStore, resourceKey } from './mcp-token-store.js';

/**
 * Forgets a server's tokens, client registration and discovery (kept under its resource URL). Resolves
 * true when there was something to forget.
 */
export async function logoutMcpServer(options: {
  config: McpHttpServerConfig;
  store: McpTokenStore;
}): Promise<boolean> {
  const resource = resourceKey(options.config.url);
  const had = (await options.store.get(resource)) !== undefined;
  await options.store.delete(resource);
  return had;
}

import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import { McpServerError } from '../errors/index.js';
import { authorizedFetch } from './authorized-fetch.js';

/**
 * Exchanges an authorization code for a server's tokens through its OAuth provider (which kept the PKCE
 * verifier and keeps the tokens). Rejects with an McpServerError saying why it could not.
 */
export async function finishAuthorization(connection: McpConnection, authorizationCode: string): Promise<void> {
  const { name, config } = connection;
  const provider = connection.authProvider;
  if (!provider || !('url' in config)) {
    throw new McpServerError(
      name,
      `MCP server "${name}" does not use OAuth: there is nothing to authorize.`,
      'invalid_server_config',
    );
  }
  try {
    const result = await auth(provider, {
      serverUrl: config.url,
      authorizationCode,
      fetchFn: authorizedFetch(config.url),
    });
    if (result !== 'AUTHORIZED') throw new Error('the authorization server asked for another login');
  } catch (error) {
    if (error instanceof McpServerError) throw error;
    throw new McpServerError(
      name,
      `MCP server "${name}": the authorization code could not be exchanged for tokens (${(error as Error).message}).`,
      'login_required',
      error,
    );
  }
}

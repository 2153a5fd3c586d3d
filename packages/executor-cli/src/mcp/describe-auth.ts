import type { McpAuthStatus } from '@agentloop/mcp';

/**
 * A server's OAuth state in a few words: `oauth: logged in, expires in 52 min`, `oauth: login needed`; and,
 * when a refreshed token could not be saved, that it lasts only as long as this process.
 */
export function describeAuth(auth: McpAuthStatus, now: number): string {
  const state = describeState(auth, now);
  if (auth.tokenStoreError === undefined) return state;
  return `${state}; the refreshed token could not be saved (${auth.tokenStoreError}): it lasts until agentloop ends`;
}

function describeState(auth: McpAuthStatus, now: number): string {
  if (auth.state === 'login-needed') return 'oauth: login needed';
  if (auth.expiresAt === undefined) return 'oauth: logged in';
  const minutes = Math.round((auth.expiresAt - now) / 60_000);
  if (minutes <= 0) return 'oauth: logged in, token expired (refreshed at the next request)';
  return `oauth: logged in, expires in ${minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`}`;
}

/** What to do about a server that needs a login. */
export function loginHint(name: string): string {
  return `MCP server "${name}" needs you to log in: run \`agentloop mcp login ${name}\``;
}

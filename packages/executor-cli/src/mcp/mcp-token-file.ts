import { join } from 'node:path';
import envPaths from 'env-paths';

/**
 * The file of the user's MCP OAuth tokens: `mcp/tokens.json` in the data directory (env-paths:
 * XDG_DATA_HOME or `~/.local/share/agentloop` on Linux), 0600 in a 0700 folder, keyed by each server's
 * resource URL. Only the user's, never a project's: a project cannot choose where a login goes. A path,
 * not the store, so that naming it does not load @agentloop/mcp.
 */
export function mcpTokenFile(): string {
  return join(envPaths('agentloop', { suffix: '' }).data, 'mcp', 'tokens.json');
}

import { createRequire } from 'node:module';
import type { CliWorkspace } from './cli-fixture.js';

const require = createRequire(import.meta.url);

/**
 * Configures the reference "everything" MCP server (from npm, over stdio, started with node directly) as
 * `[mcp_servers.everything]` in the workspace's user configuration: its tools make elicitation, sampling
 * and roots requests.
 */
export function configureEverythingMcpServer(workspace: CliWorkspace): void {
  const server = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
  workspace.appendUserConfig(
    `
[mcp_servers.everything]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(server)}, "stdio"]
`,
  );
}

import { connectMcpServers, FileTokenStore } from '@agentloop/mcp';
import { ConfigError, loadConfig } from '../config/index.js';
import { toMcpServersConfig } from '../config/mcp-servers-config.js';
import type { Style, TerminalOutput } from '../render/index.js';
import { outputWidth } from '../render/index.js';
import { EXIT_CODES } from '../session/exit-codes.js';
import { formatMcpServers } from './format-mcp-servers.js';
import { mcpTokenFile } from './mcp-token-file.js';

/** Where `agentloop mcp list` reads and writes; injectable for tests. */
export interface McpListOptions {
  cwd: string;
  userConfigFile?: string;
  environment?: Record<string, string | undefined>;
  output: TerminalOutput;
  errorOutput: TerminalOutput;
  style: Style;
}

/**
 * `agentloop mcp list`: starts every configured MCP server as a session would, shows each one's state and
 * tools (and why a failed one failed), and ends them. Exit status 0 when every enabled server is ready, 1
 * when one failed, 2 for an invalid configuration.
 */
export async function mcpList(options: McpListOptions): Promise<number> {
  let config: Awaited<ReturnType<typeof loadConfig>>;
  let servers: ReturnType<typeof toMcpServersConfig>;
  try {
    config = await loadConfig({
      cwd: options.cwd,
      ...(options.userConfigFile ? { userFile: options.userConfigFile } : {}),
    });
    servers = toMcpServersConfig(config.mcp_servers ?? {}, options.environment ?? process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    options.errorOutput.write(`✗ ${error.message}\n`);
    return EXIT_CODES.usage;
  }
  const disabled = Object.entries(servers)
    .filter(([, server]) => server.enabled === false)
    .map(([name]) => name);
  const mcp = await connectMcpServers(servers, { oauth: { store: new FileTokenStore(mcpTokenFile()) } });
  try {
    const statuses = mcp.status();
    options.output.write(
      formatMcpServers(
        statuses,
        disabled,
        options.style,
        options.output.isTTY === true ? outputWidth(options.output) : Number.POSITIVE_INFINITY,
      ),
    );
    return statuses.some((status) => status.state !== 'ready') ? EXIT_CODES.error : EXIT_CODES.success;
  } finally {
    await mcp.close();
  }
}

import type { McpServer } from '@agentclientprotocol/sdk';
import type { Agent } from '@agentloop/core';
import type { McpServersConfig } from '@agentloop/mcp';

/** The editor's MCP servers, connected: close them when the session ends. */
export interface EditorMcpServers {
  close(): Promise<void>;
}

/**
 * The editor's MCP servers as @agentloop/mcp's configuration: a stdio server started in the session's
 * directory with the editor's environment variables, an HTTP or SSE server reached with its headers. An
 * editor's name is made a valid server name (letters, digits, `_`, `-`, at most 40, no `__`, not `local`;
 * `My Server` → `My_Server`), since it prefixes the tools' names (`My_Server__search`).
 */
export function mcpServersConfig(servers: readonly McpServer[], cwd: string): McpServersConfig {
  const config: Record<string, McpServersConfig[string]> = {};
  for (const server of servers) {
    const name = uniqueName(serverName(server.name), config);
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      config[name] = {
        url: server.url,
        headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])),
        transport: server.type === 'sse' ? 'sse' : 'streamable-http',
      };
    } else {
      config[name] = {
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])),
        cwd,
      };
    }
  }
  return config;
}

/**
 * Connects the editor's MCP servers (through @agentloop/mcp, loaded only when there are some) and keeps
 * their tools in the agent's registry. The session's directory, and the editor's additional directories
 * where it sends some, are offered to them as their roots. A server that fails to start does not fail the
 * session: it is logged, and its tools' calls say why. Resolves with nothing to close when the editor gave
 * none.
 */
export async function connectEditorMcpServers(
  servers: readonly McpServer[],
  cwd: string,
  agent: Agent,
  log: (message: string) => void,
  additionalDirectories: readonly string[] = [],
): Promise<EditorMcpServers | undefined> {
  if (servers.length === 0) return undefined;
  const { connectMcpServers, directoryRoot } = await import('@agentloop/mcp');
  const roots = [cwd, ...additionalDirectories.filter((directory) => directory !== cwd)].map((directory) =>
    directoryRoot(directory),
  );
  const mcp = await connectMcpServers(mcpServersConfig(servers, cwd), { roots });
  try {
    mcp.attach(agent.tools);
  } catch (error) {
    // A tool name already taken: the session fails to open, and its servers must not outlive it.
    await mcp.close();
    throw error;
  }
  for (const status of mcp.status()) {
    if (status.state === 'failed') log(`MCP server "${status.name}" failed: ${status.error ?? 'no reason given'}`);
  }
  return mcp;
}

function serverName(name: string): string {
  const cleaned = name
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 36);
  if (cleaned === '') return 'server';
  return cleaned === 'local' ? 'local_server' : cleaned;
}

// Two servers whose names clean up the same get `-2`, `-3`, ...
function uniqueName(name: string, taken: Record<string, unknown>): string {
  if (!(name in taken)) return name;
  for (let suffix = 2; ; suffix += 1) {
    if (!(`${name}-${suffix}` in taken)) return `${name}-${suffix}`;
  }
}

import type { Plugin, PluginContainer, ToolRegistry } from '@agentloop/core';
import type { McpServers, McpServersConfig } from '@agentloop/mcp';
import { type LoadedMcpServers, toMcpServersConfig } from '../config/mcp-servers-config.js';
import { mcpTokenFile } from './mcp-token-file.js';

// The servers of each agent's registry (and their configuration, for a login in the session), for `/mcp`:
// a slash command sees the agent, not the container.
const serversByRegistry = new WeakMap<ToolRegistry, { servers: McpServers; config: McpServersConfig }>();

/**
 * The configured MCP servers as a plugin of the session's container, or none when none is configured:
 * started in `init` (a server that fails is reported by `/mcp` and in its tools' results, and does not stop
 * the session), their tools in the agent's registry, ended when the container is disposed. The workspace
 * is offered to them as their root. Throws a ConfigError when a header's environment variable is not set.
 */
export async function mcpSessionPlugins(
  servers: LoadedMcpServers | undefined,
  environment: Record<string, string | undefined>,
  workspace: string = process.cwd(),
): Promise<Plugin[]> {
  if (!servers || Object.keys(servers).length === 0) return [];
  const config = toMcpServersConfig(servers, environment);
  // Loaded only when a server is configured: the MCP SDK is not small.
  const { directoryRoot, FileTokenStore, mcpPlugin } = await import('@agentloop/mcp');
  const plugin = mcpPlugin(config, {
    oauth: { store: new FileTokenStore(mcpTokenFile()) },
    roots: [directoryRoot(workspace)],
  });
  return [
    {
      name: plugin.name,
      register: (container: PluginContainer) => plugin.register(container),
      async init(container: PluginContainer) {
        await plugin.init(container);
        if (plugin.servers) {
          // Imported here, not at the top: `/mcp` imports this module before the prompt shows, and core is
          // loaded by the time a container exists, so the prompt does not wait for it.
          const { TOKENS } = await import('@agentloop/core');
          serversByRegistry.set(container.resolve(TOKENS.ToolRegistry), { servers: plugin.servers, config });
        }
      },
      dispose: () => plugin.dispose(),
    },
  ];
}

/** The MCP servers whose tools are in this registry (`agent.tools`), if any. */
export function mcpServersOf(registry: ToolRegistry): McpServers | undefined {
  return serversByRegistry.get(registry)?.servers;
}

/** The configuration of the MCP servers whose tools are in this registry, if any. */
export function mcpConfigOf(registry: ToolRegistry): McpServersConfig | undefined {
  return serversByRegistry.get(registry)?.config;
}

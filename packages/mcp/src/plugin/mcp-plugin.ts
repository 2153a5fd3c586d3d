import type { McpServersConfig } from '../config/index.js';
import { type ConnectMcpServersOptions, McpServers, type ToolRegistryTarget } from '../mcp-servers.js';

/**
 * The token of the agent's ToolRegistry in a container: core's `TOKENS.ToolRegistry` is this registered
 * symbol, so the plugin reaches the registry without depending on @agentloop/core.
 */
const TOOL_REGISTRY_TOKEN: symbol = Symbol.for('agentloop.ToolRegistry');

/** The part of a DI container (tsyringe's DependencyContainer) the MCP plugin uses. */
export interface McpPluginContainer {
  resolve(token: symbol): unknown;
}

/** A plugin that starts MCP servers and keeps their tools in the agent's registry. */
export interface McpPlugin {
  readonly name: string;
  /** The servers, once `init` has run (undefined before, and after `dispose`). */
  readonly servers: McpServers | undefined;
  register(container: McpPluginContainer): void;
  /** Starts the servers and attaches their tools to the container's ToolRegistry. */
  init(container: McpPluginContainer): Promise<void>;
  /** Ends every server. */
  dispose(): Promise<void>;
}

/**
 * The MCP servers as a plugin for `createContainer({ plugins })` and the CLI: `init` starts them (a server
 * that fails is reported in its status and does not fail the others) and attaches their tools, kept
 * current, to the container's ToolRegistry; `dispose` (`disposeContainer`) ends them. Throws an
 * McpServerError (`invalid_server_config`) at once for a configuration that cannot be used.
 */
export function mcpPlugin(servers: McpServersConfig, options: ConnectMcpServersOptions = {}): McpPlugin {
  // Checked now, so that a mistake in the configuration is reported before anything starts.
  let pending: McpServers | undefined = new McpServers(servers, options);
  let running: McpServers | undefined;
  let detach: (() => void) | undefined;
  return {
    name: 'mcp',
    get servers() {
      return running;
    },
    register() {},
    async init(container) {
      if (!pending) throw new Error('The MCP plugin was already started; make a new one with mcpPlugin().');
      running = pending;
      pending = undefined;
      await running.start();
      detach = running.attach(container.resolve(TOOL_REGISTRY_TOKEN) as ToolRegistryTarget);
    },
    async dispose() {
      detach?.();
      const closing = running;
      running = undefined;
      await closing?.close();
    },
  };
}

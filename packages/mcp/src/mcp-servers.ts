import type { Tool, ToolRegistry } from '@agentloop/tools';
import { finishAuthorization } from './auth/finish-authorization.js';
import type { McpOAuthOptions } from './auth/mcp-oauth-options.js';
import { MemoryTokenStore } from './auth/mcp-token-store.js';
import { oauthProviderFor } from './auth/oauth-provider-for.js';
import { checkServerConfig, isStdioServerConfig, type McpServersConfig } from './config/index.js';
import { McpConnection } from './connection/mcp-connection.js';
import type { McpServerStatus } from './connection/mcp-server-status.js';
import type { RestartBackoff } from './connection/restart-backoff.js';
import { McpServerError } from './errors/index.js';

/** Options of `connectMcpServers`. */
export interface ConnectMcpServersOptions {
  /** How the client introduces itself to servers. Default `{ name: 'agentloop', version: '0.1.0' }`. */
  clientInfo?: { name: string; version: string };
  /** The wait between failed starts of a server (first 1 s, doubling up to 60 s). */
  restartBackoff?: RestartBackoff;
  /** Called with a server's status whenever its state or its tools change. */
  onStatusChange?: (status: McpServerStatus) => void;
  /** The clock, for the backoff; `Date.now` by default. */
  now?: () => number;
  /**
   * OAuth for HTTP servers without static credentials: the app's own provider, or the store of the
   * built-in one (in memory by default). A server that needs a person to log in is `failed` with
   * `auth.state` `login-needed`.
   */
  oauth?: McpOAuthOptions;
}

/** The part of a ToolRegistry that `attach` keeps in step with the servers' tools. */
export type ToolRegistryTarget = Pick<ToolRegistry, 'register' | 'unregister' | 'get'>;

/**
 * Starts (or reaches) every enabled server, in parallel, and resolves once each is ready or has failed:
 * a server that fails does not fail the others, its status says why (`status()`), and it is tried again
 * when one of its tools is called. Throws an McpServerError (`invalid_server_config`) before starting
 * anything when a configuration cannot be used.
 *
 * ```ts
 * const mcp = await connectMcpServers({
 *   github: { command: 'github-mcp-server', args: ['stdio'], env: { GITHUB_TOKEN: token } },
 *   docs: { url: 'https://docs.example.com/mcp', headers: { Authorization: `Bearer ${key}` } },
 * });
 * mcp.attach(agent.tools); // github__create_issue, docs__search, … and kept current
 * try { await agent.run('…'); } finally { await mcp.close(); }
 * ```
 */
export async function connectMcpServers(
  servers: McpServersConfig,
  options: ConnectMcpServersOptions = {},
): Promise<McpServers> {
  const mcp = new McpServers(servers, options);
  await mcp.start();
  return mcp;
}

/**
 * A set of MCP servers and their tools. Close it when done (`close()`): it ends every server process.
 * The tools it gives are plain agentloop tools (`server__tool`), so the approval policy, the timeout and
 * cancellation of the loop apply to them as to any other tool.
 */
export class McpServers {
  readonly #connections: McpConnection[];
  readonly #listeners = new Set<() => void>();
  readonly #onStatusChange: ConnectMcpServersOptions['onStatusChange'];
  #toolsCache: readonly Tool[] | undefined;

  /** Checks every configuration (see `connectMcpServers`); nothing starts until `start()`. */
  constructor(servers: McpServersConfig, options: ConnectMcpServersOptions = {}) {
    const entries = Object.entries(servers);
    for (const [name, config] of entries) checkServerConfig(name, config);
    this.#onStatusChange = options.onStatusChange;
    const memoryStore = new MemoryTokenStore();
    this.#connections = entries
      .filter(([, config]) => config.enabled !== false)
      .map(([name, config]) => {
        const authProvider = isStdioServerConfig(config)
          ? undefined
          : oauthProviderFor(name, config, options.oauth, memoryStore);
        return new McpConnection(name, config, {
          clientInfo: options.clientInfo ?? { name: 'agentloop', version: '0.1.0' },
          ...(options.restartBackoff ? { restartBackoff: options.restartBackoff } : {}),
          ...(options.now ? { now: options.now } : {}),
          ...(authProvider ? { authProvider } : {}),
          onChange: () => this.#changed(name),
        });
      });
  }

  /** Starts every server that is not running; resolves once each is ready or has failed. Never rejects. */
  async start(): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.start()));
  }

  /** Every server's tools, in the servers' order; a new array after a change. */
  get tools(): readonly Tool[] {
    this.#toolsCache ??= this.#connections.flatMap((connection) => connection.tools);
    return this.#toolsCache;
  }

  /** Every enabled server's status, in configuration order. */
  status(): McpServerStatus[] {
    return this.#connections.map((connection) => connection.status());
  }

  /**
   * Registers the servers' tools in a registry (`agent.tools`) and keeps it in step: a tool a server
   * adds is registered, one it removes is unregistered. Returns a function that stops that (the tools
   * already registered stay). Throws a ToolDefinitionError when one of the tools' names is already taken.
   */
  attach(registry: ToolRegistryTarget): () => void {
    let registered = new Set<Tool>();
    const sync = (): void => {
      const current = new Set(this.tools);
      for (const tool of registered) {
        if (!current.has(tool) && registry.get(tool.name)?.tool === tool) registry.unregister(tool.name);
      }
      for (const tool of current) if (!registered.has(tool)) registry.register(tool);
      registered = current;
    };
    sync();
    const listener = (): void => {
      try {
        sync();
      } catch {
        // A name taken since (a local tool registered after attach): the tool stays out; the status shows it.
      }
    };
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Calls `listener` whenever a server's tools change. Returns a function that removes it. */
  onToolsChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Completes an OAuth authorization that the app's provider sent the user off for: exchanges the code
   * its redirect brought back (with the PKCE verifier the provider kept), and starts the server again.
   * Resolves with the server's status; rejects with an McpServerError when the server is unknown, has no
   * OAuth provider, or the exchange failed.
   */
  async finishAuthorization(name: string, authorizationCode: string): Promise<McpServerStatus> {
    const connection = this.#connection(name);
    await finishAuthorization(connection, authorizationCode);
    await connection.startAgain();
    return connection.status();
  }

  /**
   * Starts a failed server again now, without waiting for its backoff: after a login made elsewhere
   * (`loginMcpServer`). Resolves with its status; rejects with an McpServerError for an unknown name.
   */
  async reconnect(name: string): Promise<McpServerStatus> {
    const connection = this.#connection(name);
    await connection.startAgain();
    return connection.status();
  }

  /** Ends every server (their processes, for stdio ones), in parallel. */
  async close(): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.close()));
    this.#listeners.clear();
  }

  #connection(name: string): McpConnection {
    const connection = this.#connections.find((candidate) => candidate.name === name);
    if (!connection) {
      const known = this.#connections.map((candidate) => candidate.name).join(', ') || 'none';
      throw new McpServerError(
        name,
        `No enabled MCP server is named "${name}" (there are: ${known}).`,
        'invalid_server_config',
      );
    }
    return connection;
  }

  #changed(name: string): void {
    const tools = this.#connections.flatMap((connection) => connection.tools);
    const before = this.#toolsCache;
    if (!before || before.length !== tools.length || tools.some((tool, index) => tool !== before[index])) {
      this.#toolsCache = tools;
      for (const listener of [...this.#listeners]) listener();
    }
    const connection = this.#connections.find((candidate) => candidate.name === name);
    if (connection) this.#onStatusChange?.(connection.status());
  }
}

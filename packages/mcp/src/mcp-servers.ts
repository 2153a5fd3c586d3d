import type { Tool, ToolRegistry } from '@agentloop/tools';
import { checkServerConfig, type McpServersConfig } from './config/index.js';
import { McpConnection } from './connection/mcp-connection.js';
import type { McpServerStatus } from './connection/mcp-server-status.js';
import type { RestartBackoff } from './connection/restart-backoff.js';
import { McpServerError } from './errors/index.js';
import type { McpRoot } from './requests/mcp-root.js';

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
   * The directories servers may work in (MCP's roots; `directoryRoot(workspace)` makes one), changed
   * later with `setRoots`. Without it the client declares no roots capability.
   */
  roots?: readonly McpRoot[];
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
  #roots: readonly McpRoot[] | undefined;

  /** Checks every configuration (see `connectMcpServers`); nothing starts until `start()`. */
  constructor(servers: McpServersConfig, options: ConnectMcpServersOptions = {}) {
    const entries = Object.entries(servers);
    for (const [name, config] of entries) checkServerConfig(name, config);
    this.#onStatusChange = options.onStatusChange;
    this.#roots = options.roots && checkedRoots(options.roots);
    const roots = this.#roots ? () => this.#roots ?? [] : undefined;
    this.#connections = entries
      .filter(([, config]) => config.enabled !== false)
      .map(
        ([name, config]) =>
          new McpConnection(name, config, {
            clientInfo: options.clientInfo ?? { name: 'agentloop', version: '0.1.0' },
            ...(options.restartBackoff ? { restartBackoff: options.restartBackoff } : {}),
            ...(options.now ? { now: options.now } : {}),
            ...(roots ? { roots } : {}),
            onChange: () => this.#changed(name),
          }),
      );
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
   * Replaces the roots offered to the servers and tells the running ones (`notifications/roots/list_changed`).
   * Throws an McpServerError (`invalid_server_config`) when a root is not a `file://` URI, or when the
   * servers were connected without `roots` (the capability is declared in the handshake).
   */
  async setRoots(roots: readonly McpRoot[]): Promise<void> {
    if (!this.#roots) {
      throw new McpServerError(
        'roots',
        'These MCP servers were connected without roots; pass `roots` to connectMcpServers to offer them.',
        'invalid_server_config',
      );
    }
    this.#roots = checkedRoots(roots);
    await Promise.all(this.#connections.map((connection) => connection.rootsChanged()));
  }

  /** Ends every server (their processes, for stdio ones), in parallel. */
  async close(): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.close()));
    this.#listeners.clear();
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

function checkedRoots(roots: readonly McpRoot[]): readonly McpRoot[] {
  for (const root of roots) {
    if (typeof root?.uri !== 'string' || !root.uri.startsWith('file://')) {
      throw new McpServerError(
        'roots',
        `An MCP root must be a file:// URI, got ${JSON.stringify(root?.uri)}; make one with directoryRoot(path).`,
        'invalid_server_config',
      );
    }
  }
  return [...roots];
}

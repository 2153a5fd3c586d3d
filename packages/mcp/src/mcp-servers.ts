import type { Tool, ToolRegistry } from '@agentloop/tools';
import { finishAuthorization } from './auth/finish-authorization.js';
import type { McpOAuthOptions } from './auth/mcp-oauth-options.js';
import { MemoryTokenStore } from './auth/mcp-token-store.js';
import { oauthProviderFor } from './auth/oauth-provider-for.js';
import { checkServerConfig, isStdioServerConfig, type McpServersConfig } from './config/index.js';
import { McpConnection } from './connection/mcp-connection.js';
import type { McpServerStatus } from './connection/mcp-server-status.js';
import type { RestartBackoff } from './connection/restart-backoff.js';
import type { ServerContent } from './content/server-content.js';
import { McpServerError } from './errors/index.js';
import type { McpPromptResult } from './prompts/mcp-prompt.js';
import type { McpRoot } from './requests/mcp-root.js';
import { DEFAULT_MAX_RESOURCE_BYTES } from './resources/cap-resource-text.js';
import type { McpResourceContents } from './resources/mcp-resource-contents.js';
import { READ_RESOURCE_TOOL_NAME, readResourceTool } from './resources/read-resource-tool.js';

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

  /**
   * Whether `tools` includes `read_resource` (arguments `server`, `uri`, read-only) while any server offers
   * resources, so that the model can read them. Default true.
   */
  readResourceTool?: boolean;

  /**
   * The directories servers may work in (MCP's roots; `directoryRoot(workspace)` makes one), changed
   * later with `setRoots`. Without it the client declares no roots capability.
   */
  roots?: readonly McpRoot[];
}

/** A subscription to a resource's changes (`subscribeResource`). */
export interface McpResourceSubscription {
  /** True when the server offers subscriptions and took this one; without them no update ever comes. */
  readonly subscribed: boolean;
  /** Stops the updates; the server is told once no one listens to the resource. Never rejects. */
  unsubscribe(): Promise<void>;
}

// The servers attached to each registry, for an executor that sees the agent and not who composed it.
const attachedServers = new WeakMap<object, Set<McpServers>>();

/**
 * The server sets whose tools `attach` keeps in this registry (`agent.tools`), in the order they were
 * attached, while they are attached and open: an executor finds the prompts and resources of the agent's
 * servers through them. Never throws.
 */
export function attachedMcpServers(registry: object): McpServers[] {
  return [...(attachedServers.get(registry) ?? [])];
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
  readonly #contentListeners = new Set<() => void>();
  readonly #registries = new Set<object>();
  readonly #onStatusChange: ConnectMcpServersOptions['onStatusChange'];
  readonly #offerReadResource: boolean;
  #toolsCache: readonly Tool[] | undefined;
  /** The `read_resource` tool and the listing it was made for: made again only when that changes. */
  #readResource: { key: string; tool: Tool } | undefined;
  /** Each server's content as last announced, to tell content listeners only of a change. */
  readonly #seenContent = new Map<string, ServerContent>();
  #roots: readonly McpRoot[] | undefined;

  /** Checks every configuration (see `connectMcpServers`); nothing starts until `start()`. */
  constructor(servers: McpServersConfig, options: ConnectMcpServersOptions = {}) {
    const entries = Object.entries(servers);
    for (const [name, config] of entries) checkServerConfig(name, config);
    this.#onStatusChange = options.onStatusChange;
    const memoryStore = new MemoryTokenStore();
    this.#offerReadResource = options.readResourceTool !== false;
    this.#roots = options.roots && checkedRoots(options.roots);
    const roots = this.#roots ? () => this.#roots ?? [] : undefined;
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
          ...(roots ? { roots } : {}),
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
    this.#toolsCache ??= this.#currentTools();
    return this.#toolsCache;
  }

  /**
   * Fills in a server's prompt (`prompts/get`) with its arguments (by name), as messages whose text is
   * cleaned for the model and the terminal. Rejects with an McpServerError: `unknown_server`,
   * `prompt_error` (the server refused: an unknown prompt, a missing argument), or the server's failure.
   */
  async getPrompt(server: string, name: string, args: Record<string, string> = {}): Promise<McpPromptResult> {
    return this.#connection(server).getPrompt(name, args);
  }

  /**
   * Reads a server's resource by its URI (listed, or filled into one of its templates). Rejects with an
   * McpServerError: `unknown_server`, `resource_error` (the server refused: an unknown URI), or the
   * server's failure; with the signal's reason when it is aborted.
   */
  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<McpResourceContents[]> {
    return this.#connection(server).readResource(uri, signal);
  }

  /**
   * The most of one of a server's resources given at once, in bytes of UTF-8 text: its `maxResourceBytes`,
   * or DEFAULT_MAX_RESOURCE_BYTES (64 KB). Pass it to `resourceContentsValue` as `maxBytes`. Throws an
   * McpServerError (`unknown_server`) for a name that is no server's.
   */
  maxResourceBytes(server: string): number {
    return this.#connection(server).config.maxResourceBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  }

  /**
   * Calls `listener` whenever the server says the resource at `uri` changed, while the subscription
   * lasts (see McpResourceSubscription). Rejects with an McpServerError (`unknown_server`) only.
   */
  async subscribeResource(
    server: string,
    uri: string,
    listener: (uri: string) => void,
  ): Promise<McpResourceSubscription> {
    return this.#connection(server).subscribeResource(uri, listener);
  }

  /** Calls `listener` whenever a server's prompts, resources or resource templates change. Returns a function that removes it. */
  onContentChanged(listener: () => void): () => void {
    this.#contentListeners.add(listener);
    return () => this.#contentListeners.delete(listener);
  }

  /** Every enabled server's status, in configuration order. */
  status(): McpServerStatus[] {
    return this.#connections.map((connection) => connection.status());
  }

  /**
   * Registers the servers' tools in a registry (`agent.tools`) and keeps it in step: a tool a server
   * adds is registered, one it removes is unregistered. Returns a function that stops that (the tools
   * already registered stay). Throws a ToolDefinitionError when one of the servers' tools' names is
   * already taken; a `read_resource` already there (another server set's, or a local tool) is kept instead.
   */
  attach(registry: ToolRegistryTarget): () => void {
    let registered = new Set<Tool>();
    const sync = (): void => {
      const current = new Set(this.tools);
      for (const tool of registered) {
        if (!current.has(tool) && registry.get(tool.name)?.tool === tool) registry.unregister(tool.name);
      }
      const next = new Set<Tool>();
      for (const tool of current) {
        // A name taken by another server set attached to the same registry (the CLI's servers and an
        // editor's) or by a local tool: the one there stays, rather than the attach failing.
        if (!registered.has(tool) && tool.name === READ_RESOURCE_TOOL_NAME && registry.get(tool.name)) continue;
        if (!registered.has(tool)) registry.register(tool);
        next.add(tool);
      }
      registered = next;
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
    const servers = attachedServers.get(registry) ?? new Set<McpServers>();
    servers.add(this);
    attachedServers.set(registry, servers);
    this.#registries.add(registry);
    return () => {
      this.#listeners.delete(listener);
      attachedServers.get(registry)?.delete(this);
      this.#registries.delete(registry);
    };
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
    this.#contentListeners.clear();
    for (const registry of this.#registries) attachedServers.get(registry)?.delete(this);
    this.#registries.clear();
  }

  #connection(server: string): McpConnection {
    const connection = this.#connections.find((candidate) => candidate.name === server);
    if (connection) return connection;
    const names = this.#connections.map((candidate) => candidate.name);
    throw new McpServerError(
      server,
      `No MCP server is named "${server}"${names.length > 0 ? `; the servers are ${names.join(', ')}` : ''}.`,
      'unknown_server',
    );
  }

  /** The servers' tools, and `read_resource` while any of them offers resources. */
  #currentTools(): Tool[] {
    const tools = this.#connections.flatMap((connection) => connection.tools);
    if (!this.#offerReadResource) return tools;
    const statuses = this.status();
    if (!statuses.some((status) => status.resources.length > 0 || status.resourceTemplates.length > 0)) return tools;
    const key = JSON.stringify(statuses.map((status) => [status.name, status.resources, status.resourceTemplates]));
    if (this.#readResource?.key !== key) {
      this.#readResource = {
        key,
        tool: readResourceTool(
          {
            readResource: (server, uri, signal) => this.readResource(server, uri, signal),
            maxResourceBytes: (server) => this.maxResourceBytes(server),
          },
          statuses,
        ),
      };
    }
    return [...tools, this.#readResource.tool];
  }

  #changed(name: string): void {
    const tools = this.#currentTools();
    const before = this.#toolsCache;
    if (!before || before.length !== tools.length || tools.some((tool, index) => tool !== before[index])) {
      this.#toolsCache = tools;
      for (const listener of [...this.#listeners]) listener();
    }
    const connection = this.#connections.find((candidate) => candidate.name === name);
    if (connection && this.#seenContent.get(name) !== connection.content) {
      this.#seenContent.set(name, connection.content);
      for (const listener of [...this.#contentListeners]) listener();
    }
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

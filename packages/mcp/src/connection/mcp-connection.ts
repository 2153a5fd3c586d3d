import { describeThrown, type Tool, type ToolContext, type ToolResult } from '@agentloop/tools';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode,
  McpError,
  ProgressNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { authorizedFetch } from '../auth/authorized-fetch.js';
import { StoredOAuthProvider } from '../auth/stored-oauth-provider.js';
import { isStdioServerConfig, type McpServerConfig } from '../config/index.js';
import { McpContentRequests } from '../content/mcp-content-requests.js';
import { type ContentKind, listServerContent, NO_CONTENT, type ServerContent } from '../content/server-content.js';
import { McpServerError } from '../errors/index.js';
import type { McpPromptResult } from '../prompts/mcp-prompt.js';
import { CallsInFlight } from '../requests/calls-in-flight.js';
import type { McpRoot } from '../requests/mcp-root.js';
import { serveServerRequests } from '../requests/serve-server-requests.js';
import type { McpResourceContents } from '../resources/mcp-resource-contents.js';
import { formatCallResult } from '../results/format-call-result.js';
import { toToolValue } from '../results/to-tool-value.js';
import type { ChildProcessTransport } from '../transport/child-process-transport.js';
import { StderrTail } from '../transport/stderr-tail.js';
import { CallProgress } from './call-progress.js';
import type { McpAuthStatus, McpServerState, McpServerStatus, McpTransportKind } from './mcp-server-status.js';
import { openClient } from './open-client.js';
import { type RestartBackoff, restartDelayMs } from './restart-backoff.js';
import { describeExit, describeStartError, loginRequired, needsLogin, withStderrTail } from './server-failure.js';
import { listServerTools, ServerTools } from './server-tools.js';

/** How a connection runs, beside its server's configuration. */
export interface McpConnectionOptions {
  /** How the client introduces itself in the handshake. */
  clientInfo: { name: string; version: string };
  /** The wait between failed starts. */
  restartBackoff?: RestartBackoff;
  /** Called when the server's state or its tools change. */
  onChange?: () => void;
  /** The clock, for the backoff; `Date.now` by default. */
  now?: () => number;
  /** An HTTP server's OAuth provider; none for static credentials. */
  authProvider?: OAuthClientProvider;
  /** The roots offered to the server, read at each `roots/list`; absent: no roots capability. */
  roots?: () => readonly McpRoot[];
}

const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
/** The longest timer Node keeps: a call is bounded by the loop's timeout instead (see callTool). */
const NO_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * One MCP server and the client connected to it: starts it, lists its tools and keeps them current
 * (`notifications/tools/list_changed`), runs calls, and notices when it exits. A server that fails to
 * start or exits is `failed`; its tools stay, their calls fail with a message naming the server and its
 * last words on stderr, and the next call after the backoff starts it again.
 */
export class McpConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly #options: McpConnectionOptions;
  readonly #stderr = new StderrTail();
  readonly #now: () => number;
  #state: McpServerState = 'starting';
  #client: Client | undefined;
  #process: ChildProcessTransport | undefined;
  #kind: McpTransportKind;
  #serverInfo: McpServerStatus['serverInfo'];
  readonly #tools: ServerTools;
  #error: string | undefined;
  #failures = 0;
  #restarts = 0;
  #nextStartAt = 0;
  #starting: Promise<void> | undefined;
  /** The start again of a server that failed before it ever listed tools (no call would start it). */
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  // Each start gets a number: the close of an old client must not mark a newer one as exited.
  #generation = 0;
  readonly #progress = new CallProgress();
  #auth: McpAuthStatus | undefined;
  /** Its prompts, resources and resource templates, as last listed (kept while it is down). */
  #content: ServerContent = NO_CONTENT;
  /** Its prompts and resources' requests: prompts/get, resources/read, subscriptions. */
  readonly #requests: McpContentRequests;
  /** The calls in progress, through whose ToolContext the server's elicitation and sampling are answered. */
  readonly #calls = new CallsInFlight();

  constructor(name: string, config: McpServerConfig, options: McpConnectionOptions) {
    this.name = name;
    this.config = config;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#tools = new ServerTools(name, config, (toolName, args, context) => this.callTool(toolName, args, context));
    this.#kind = isStdioServerConfig(config) ? 'stdio' : config.transport === 'sse' ? 'sse' : 'streamable-http';
    this.#requests = new McpContentRequests({
      name,
      readyClient: () => this.#readyClient(),
      currentClient: () => this.#client,
      connectionFailure: (client, what, error) => this.#callFailure(client, what, error),
      timeoutMs: config.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
    });
  }

  /** The server's tools as agentloop tools, after `includeTools` and `excludeTools`; kept while it is down. */
  get tools(): readonly Tool[] {
    return this.#tools.tools;
  }

  /** Its prompts, resources and resource templates, as last listed; a new object after each listing. */
  get content(): ServerContent {
    return this.#content;
  }

  /** Where the server is, for display. */
  status(): McpServerStatus {
    return {
      name: this.name,
      state: this.#state,
      transport: this.#kind,
      tools: this.#tools.tools.map((tool) => ({
        name: tool.server?.toolName ?? tool.name,
        nativeName: tool.name,
        description: tool.description,
      })),
      prompts: this.#content.prompts,
      resources: this.#content.resources,
      resourceTemplates: this.#content.resourceTemplates,
      resourcesSubscribable: this.#client?.getServerCapabilities()?.resources?.subscribe === true,
      restarts: this.#restarts,
      ...(this.#error === undefined ? {} : { error: this.#error }),
      ...(this.#state === 'ready' && this.#process?.pid !== undefined ? { pid: this.#process.pid } : {}),
      ...(this.#serverInfo ? { serverInfo: this.#serverInfo } : {}),
      ...(this.#state === 'failed' ? { nextStartAt: this.#nextStartAt } : {}),
      ...(this.#auth ? { auth: this.#auth } : {}),
    };
  }

  /** Starts the server and lists its tools. Never rejects: a failure leaves it `failed`, with `error` saying why. */
  start(): Promise<void> {
    if (this.#state === 'closed') return Promise.resolve();
    this.#starting ??= this.#start().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  /**
   * Calls one of the server's tools (by its name on the server) and resolves with what the model sees:
   * the result's text, or a `toolResult` that also keeps its images (see toToolValue). Starts the server
   * first when it is down and its backoff has passed. Rejects with an
   * McpServerError when the server is down, exits during the call or answers with an error (`isError`);
   * with the signal's reason when the call is cancelled (the server is told with
   * `notifications/cancelled`).
   */
  async callTool(toolName: string, args: Record<string, unknown>, context: ToolContext): Promise<string | ToolResult> {
    const client = await this.#readyClient();
    const progressToken = this.#progress.open(context);
    let result: Awaited<ReturnType<Client['callTool']>>;
    const leave = this.#calls.enter(context);
    try {
      result = await client.callTool({ name: toolName, arguments: args, _meta: { progressToken } }, undefined, {
        signal: context.signal,
        // The call's timeout (`toolTimeoutMs`, the tool's `timeoutMs`) is the loop's, which aborts `signal`:
        // it stands still while the user answers the server's elicitation, which the SDK's could not.
        timeout: NO_TIMEOUT_MS,
      });
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason ?? error;
      if (needsLogin(error)) {
        // A step-up the server asked for that needs a person: the connection itself is fine.
        this.#auth = { state: 'login-needed' };
        throw loginRequired(this.name, error);
      }
      if (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403)) {
        // The server answered: it refuses this call with the authorization the client could get.
        throw new McpServerError(
          this.name,
          `MCP server "${this.name}" refused the call with HTTP ${error.code} even after authorizing again (${describeThrown(error)}); the account may lack the permission.`,
          'tool_error',
          error,
        );
      }
      throw await this.#callFailure(client, `"${toolName}"`, error);
    } finally {
      this.#progress.close(progressToken);
      leave();
    }
    this.#failures = 0;
    // The call may have refreshed the token: keep the expiry the status shows current.
    if (this.#auth) this.#auth = (await authStatus(this.#options.authProvider)) ?? this.#auth;
    const callResult = result as Parameters<typeof formatCallResult>[0];
    if (result.isError) throw new McpServerError(this.name, formatCallResult(callResult), 'tool_error');
    return toToolValue(callResult);
  }

  /** The HTTP server's OAuth provider, if it has one. */
  get authProvider(): OAuthClientProvider | undefined {
    return this.#options.authProvider;
  }

  /**
   * Starts a failed server again now, its backoff aside: after a login made its authorization possible.
   * Leaves a server that is ready or starting as it is. Never rejects.
   */
  async startAgain(): Promise<void> {
    if (this.#state !== 'failed') return this.#starting;
    // Not counted in `restarts`, which tells of a server that failed by itself.
    clearTimeout(this.#retryTimer);
    await this.start();
  }

  /** Fills in one of the server's prompts: see McpContentRequests.getPrompt. */
  getPrompt(name: string, args: Record<string, string> = {}): Promise<McpPromptResult> {
    return this.#requests.getPrompt(name, args);
  }

  /** Reads one of the server's resources: see McpContentRequests.readResource. */
  readResource(uri: string, signal?: AbortSignal): Promise<McpResourceContents[]> {
    return this.#requests.readResource(uri, signal);
  }

  /** Follows a resource's changes: see McpContentRequests.subscribeResource. */
  subscribeResource(uri: string, listener: (uri: string) => void): ReturnType<McpContentRequests['subscribeResource']> {
    return this.#requests.subscribeResource(uri, listener);
  }

  /**
   * Tells a running server that the roots changed (`notifications/roots/list_changed`); it asks for them
   * again. Never rejects: a server that is down reads the new roots when it starts.
   */
  async rootsChanged(): Promise<void> {
    if (this.#state !== 'ready' || !this.#options.roots) return;
    await this.#client?.sendRootsListChanged().catch(() => {});
  }

  /** Ends the server (its process, for stdio) for good. */
  async close(): Promise<void> {
    this.#state = 'closed';
    this.#generation += 1;
    clearTimeout(this.#retryTimer);
    await this.#starting;
    await this.#closeClient();
    this.#options.onChange?.();
  }

  async #start(): Promise<void> {
    const generation = ++this.#generation;
    this.#setState('starting');
    this.#stderr.clear();
    const timeout = this.config.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
    let startingProcess: ChildProcessTransport | undefined;
    try {
      const opened = await openClient(this.config, {
        clientInfo: this.#options.clientInfo,
        stderr: this.#stderr,
        requestOptions: { timeout },
        ...this.#openAuth(),
        onProcess: (process) => {
          startingProcess = process;
        },
        prepare: (client) => {
          serveServerRequests(client, { server: this.name, calls: this.#calls, roots: this.#options.roots });
          client.onclose = () => this.#onClosed(generation);
          client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#onToolsChanged(generation));
          client.setNotificationHandler(PromptListChangedNotificationSchema, () =>
            this.#onContentChanged(generation, 'prompts'),
          );
          client.setNotificationHandler(ResourceListChangedNotificationSchema, () =>
            this.#onContentChanged(generation, 'resources'),
          );
          client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) =>
            this.#requests.subscriptions.notify(params.uri),
          );
          client.setNotificationHandler(ProgressNotificationSchema, ({ params }) => this.#progress.notify(params));
        },
      });
      this.#client = opened.client;
      this.#process = opened.process;
      this.#kind = opened.kind;
      if (generation !== this.#generation) {
        await this.#closeClient();
        return;
      }
      const version = opened.client.getServerVersion();
      this.#serverInfo = version ? { name: version.name, version: version.version } : undefined;
      await this.#listTools(generation, { timeout });
      await this.#listContent(generation, ['prompts', 'resources'], { timeout });
      if (generation !== this.#generation) return;
      this.#auth = await authStatus(this.#options.authProvider);
      await this.#requests.subscribeAgain(opened.client, { timeout });
      this.#error = undefined;
      this.#setState('ready');
    } catch (error) {
      if (generation !== this.#generation) return;
      await this.#closeClient();
      if (needsLogin(error)) {
        this.#auth = { state: 'login-needed' };
        this.#fail(loginRequired(this.name, error).message);
        return;
      }
      const exit = startingProcess?.exit ? ` (it ${describeExit(startingProcess)})` : '';
      this.#fail(`MCP server "${this.name}" failed to start: ${describeStartError(error, this.config)}${exit}.`);
    }
  }

  #openAuth(): { auth?: { provider: OAuthClientProvider | undefined; fetch: ReturnType<typeof authorizedFetch> } } {
    if (isStdioServerConfig(this.config)) return {};
    const provider = this.#options.authProvider;
    const listener = provider instanceof StoredOAuthProvider ? provider : undefined;
    return { auth: { provider, fetch: authorizedFetch(this.config.url, listener) } };
  }

  async #readyClient(): Promise<Client> {
    if (this.#state === 'starting') await this.start();
    if (this.#state === 'failed') {
      const waitMs = this.#nextStartAt - this.#now();
      if (waitMs > 0) {
        throw new McpServerError(
          this.name,
          `${this.#error} It is started again in ${Math.ceil(waitMs / 1000)} s; use other tools meanwhile.`,
          'server_unavailable',
        );
      }
      if (!this.#starting) this.#restarts += 1;
      await this.start();
    }
    if (this.#state === 'closed') {
      throw new McpServerError(this.name, `MCP server "${this.name}" was closed.`, 'server_unavailable');
    }
    if (this.#state !== 'ready' || !this.#client) {
      throw new McpServerError(
        this.name,
        this.#error ?? `MCP server "${this.name}" is not running.`,
        'server_start_failed',
      );
    }
    return this.#client;
  }

  /** `what` names what was asked for: a tool (`"search"`), a prompt or a resource. */
  async #callFailure(client: Client, what: string, error: unknown): Promise<McpServerError> {
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
      // The server answered: the call was wrong (unknown tool, invalid params) or the tool failed.
      if (error.code === ErrorCode.RequestTimeout) {
        return new McpServerError(this.name, `MCP server "${this.name}" did not answer in time.`, 'tool_error', error);
      }
      return new McpServerError(this.name, `MCP server "${this.name}": ${error.message}`, 'tool_error', error);
    }
    // The connection broke. A stdio server's close has already marked it failed, with its exit and stderr;
    // an HTTP server is marked here, and reached again at the next call after the backoff.
    if (this.#client === client && this.#state === 'ready') {
      this.#generation += 1;
      await this.#closeClient();
      this.#fail(`MCP server "${this.name}" could not be reached: ${describeThrown(error)}.`);
    }
    return new McpServerError(
      this.name,
      `The call of ${what} failed: ${this.#error ?? describeThrown(error)} It is started again at a later call.`,
      'server_exited',
      error,
    );
  }

  #onClosed(generation: number): void {
    // While starting, the start's own failure reports it, with the handshake's error.
    if (generation !== this.#generation || this.#state !== 'ready') return;
    this.#generation += 1;
    this.#client = undefined;
    this.#fail(`MCP server "${this.name}" ${describeExit(this.#process)}.`);
    this.#process = undefined;
  }

  async #onToolsChanged(generation: number): Promise<void> {
    try {
      await this.#listTools(generation, {});
      this.#options.onChange?.();
    } catch {
      // The server went away while listing: its close reports that.
    }
  }

  async #onContentChanged(generation: number, kind: ContentKind): Promise<void> {
    try {
      await this.#listContent(generation, [kind], {});
      this.#options.onChange?.();
    } catch {
      // The server went away while listing: its close reports that.
    }
  }

  async #listContent(generation: number, kinds: readonly ContentKind[], options: { timeout?: number }): Promise<void> {
    const client = this.#client;
    if (!client) return;
    const content = await listServerContent(client, kinds, this.#content, options);
    if (generation === this.#generation) this.#content = content;
  }

  async #listTools(generation: number, options: { timeout?: number }): Promise<void> {
    const client = this.#client;
    if (!client) return;
    const listed = await listServerTools(client, options);
    if (generation === this.#generation) this.#tools.set(listed);
  }

  #fail(message: string): void {
    this.#error = withStderrTail(message, this.#stderr.text());
    this.#failures += 1;
    const delay = restartDelayMs(this.#failures, this.#options.restartBackoff);
    this.#nextStartAt = this.#now() + delay;
    this.#setState('failed');
    if (this.#tools.tools.length === 0) {
      clearTimeout(this.#retryTimer);
      // Unreferenced: a server still failing never keeps the app's process alive.
      this.#retryTimer = setTimeout(() => {
        this.#restarts += 1;
        void this.start();
      }, delay);
      this.#retryTimer.unref();
    }
  }

  #setState(state: McpServerState): void {
    this.#state = state;
    this.#options.onChange?.();
  }

  async #closeClient(): Promise<void> {
    const client = this.#client;
    const process = this.#process;
    this.#client = undefined;
    this.#process = undefined;
    await client?.close().catch(() => {});
    // A client that never connected does not own its transport yet.
    await process?.close().catch(() => {});
  }
}

async function authStatus(provider: OAuthClientProvider | undefined): Promise<McpAuthStatus | undefined> {
  if (!provider || !(await provider.tokens())) return undefined;
  const stored = provider instanceof StoredOAuthProvider ? provider : undefined;
  const expiresAt = await stored?.expiresAt();
  const tokenStoreError = stored?.tokenStoreError;
  return {
    state: 'logged-in',
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(tokenStoreError ? { tokenStoreError } : {}),
  };
}

import type { McpPromptSummary } from '../prompts/mcp-prompt.js';
import type { McpResourceSummary, McpResourceTemplateSummary } from '../resources/mcp-resource.js';

/**
 * Where a server is: `starting` (being started or restarted), `ready` (its tools can be called),
 * `failed` (it did not start, or it exited: `error` says why, and it is started again at the next call
 * of one of its tools once `nextStartAt` has passed), `closed` (closed by its owner, for good).
 */
export type McpServerState = 'starting' | 'ready' | 'failed' | 'closed';

/** How a server is reached. */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse';

/** One of a server's tools, as the agent sees it. */
export interface McpToolSummary {
  /** Its name on the server: the XML protocol's `tool_name`. */
  readonly name: string;
  /** Its name in native mode: `server__tool`. */
  readonly nativeName: string;
  /** Its description, as the server gave it. */
  readonly description: string;
}

/**
 * Where an HTTP server's OAuth authorization is: `logged-in` (a token is held; `expiresAt` when the
 * server said), or `login-needed` (the server wants an authorization that needs a person).
 */
export interface McpAuthStatus {
  readonly state: 'logged-in' | 'login-needed';
  /** When the access token expires (milliseconds since the epoch); it is refreshed where it can be. */
  readonly expiresAt?: number;
  /**
   * Why the tokens in use are not in the token store: a refresh got them but the store could not be
   * written. They last as long as the process, and another run may need a new login.
   */
  readonly tokenStoreError?: string;
}

/** A server's state, for `agentloop mcp list`, `/mcp` and an app's own display. */
export interface McpServerStatus {
  /** The server's name as configured. */
  readonly name: string;
  readonly state: McpServerState;
  readonly transport: McpTransportKind;
  /** Its tools after `includeTools` and `excludeTools`, as last listed (kept while it is down). */
  readonly tools: readonly McpToolSummary[];
  /** Its prompts, as last listed (kept while it is down); names and prose cleaned for the terminal. */
  readonly prompts: readonly McpPromptSummary[];
  /** Its resources, as last listed (kept while it is down). */
  readonly resources: readonly McpResourceSummary[];
  /** Its resource templates: URIs it reads beyond its list. */
  readonly resourceTemplates: readonly McpResourceTemplateSummary[];
  /** True when it tells subscribers of a resource's changes (`resources/subscribe`). */
  readonly resourcesSubscribable: boolean;
  /** Why it is `failed`: what happened, and the last lines it wrote to stderr. */
  readonly error?: string;
  /** The process id of a stdio server while it runs. */
  readonly pid?: number;
  /** The name and version the server gave in its handshake. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** How many times it was started again after a failure. */
  readonly restarts: number;
  /** When a `failed` server may be started again (milliseconds since the epoch). */
  readonly nextStartAt?: number;
  /** Its OAuth authorization, for a server that asked for one. */
  readonly auth?: McpAuthStatus;
}

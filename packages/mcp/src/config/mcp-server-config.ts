import type { McpOAuthConfig } from '../auth/mcp-oauth-config.js';

/** What every server's configuration may say, whatever its transport. */
export interface McpServerCommonConfig {
  /** False leaves the server out (it is neither started nor listed as failed). Default true. */
  enabled?: boolean;
  /**
   * How long one tool call may take before it is stopped (and the server told with
   * `notifications/cancelled`), in milliseconds; 0 never times out. Default: the agent's `toolTimeoutMs`.
   */
  toolTimeoutMs?: number;
  /** How long starting the server and its handshake may take, in milliseconds. Default 30 000. */
  startupTimeoutMs?: number;
  /** Only these of the server's tools (by their names on the server); default all. */
  includeTools?: readonly string[];
  /** None of these of the server's tools (by their names on the server); applied after `includeTools`. */
  excludeTools?: readonly string[];
  /**
   * The most of a resource's text given at once (by `read_resource`, or attached where a user mentions
   * it), in bytes of UTF-8; the rest is read on by line. A whole number, 1 or more. Default 65 536 (64 KB,
   * what the workspace's `read_file` gives of a file).
   */
  maxResourceBytes?: number;
}

/** A server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServerConfig extends McpServerCommonConfig {
  /** The program to run, e.g. `npx` or `/usr/local/bin/github-mcp-server`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /**
   * Environment variables for it, beside the few it inherits (HOME, LOGNAME, PATH, SHELL, TERM, USER):
   * the rest of this process's environment (API keys included) is not passed on.
   */
  env?: Readonly<Record<string, string>>;
  /** The directory to start it in; default this process's. */
  cwd?: string;
}

/** A server reached over HTTP: Streamable HTTP, or the older HTTP+SSE transport where that is all it offers. */
export interface McpHttpServerConfig extends McpServerCommonConfig {
  /** The server's MCP endpoint, e.g. `https://mcp.example.com/mcp`. */
  url: string;
  /** Headers sent with every request, e.g. `{ Authorization: 'Bearer …' }`. */
  headers?: Readonly<Record<string, string>>;
  /**
   * `streamable-http`, `sse`, or `auto` (the default): Streamable HTTP first, and the older SSE transport
   * when the server refuses it with an HTTP 4xx, as the MCP specification's backwards-compatibility
   * section describes.
   */
  transport?: 'auto' | 'streamable-http' | 'sse';
  /**
   * How to log in where the server wants OAuth. Without static credentials (an `Authorization` header),
   * a server that answers 401 is authorized through OAuth even without this table.
   */
  oauth?: McpOAuthConfig;
}

/** One MCP server: a command to start (stdio) or a URL to reach (HTTP). */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** Servers by name; the name prefixes their tools' native names (`github__create_issue`). */
export type McpServersConfig = Readonly<Record<string, McpServerConfig>>;

/** True for a server started as a child process. */
export function isStdioServerConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return 'command' in config && typeof config.command === 'string';
}

import { AgentloopError } from '@agentloop/tools';

/** What went wrong with an MCP server or its configuration. */
export type McpServerErrorCode =
  /** A server's configuration cannot be used: no command or url, both, a bad name, a bad timeout. */
  | 'invalid_server_config'
  /** The server could not be started or did not complete the MCP handshake. */
  | 'server_start_failed'
  /** The server exited or closed its connection (before or during a call). */
  | 'server_exited'
  /** The server is down and waits out its backoff before the next start. */
  | 'server_unavailable'
  /** The server answered the call with an error (`isError`, or a JSON-RPC error). */
  | 'tool_error'
  /** The server wants OAuth authorization that needs a person (a browser login) and none was given yet. */
  | 'login_required'

  /** No server of that name is configured (or it is disabled). */
  | 'unknown_server'
  /** The server refused to fill in a prompt: an unknown prompt, a missing or bad argument. */
  | 'prompt_error'
  /** The server refused to read a resource: an unknown URI, or one it cannot read. */
  | 'resource_error';

/**
 * An MCP server's failure. Thrown from a tool's `execute`, it becomes an error result the model sees
 * (`Tool "github__create_issue" failed [server_exited]: ...`), naming the server and its last words on
 * stderr, and the loop goes on with the other tools.
 */
export class McpServerError extends AgentloopError<McpServerErrorCode> {
  /** The server's name as configured. */
  readonly serverName: string;

  constructor(serverName: string, message: string, code: McpServerErrorCode, cause?: unknown) {
    super(message, cause === undefined ? { code } : { code, cause });
    this.serverName = serverName;
  }
}

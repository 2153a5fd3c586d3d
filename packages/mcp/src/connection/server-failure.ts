import { describeThrown } from '@agentloop/tools';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isStdioServerConfig, type McpServerConfig } from '../config/index.js';
import { McpServerError } from '../errors/index.js';
import type { ChildProcessTransport } from '../transport/child-process-transport.js';

/** True for an authorization that needs a person: the built-in provider's, or an app provider's redirect. */
export function needsLogin(error: unknown): boolean {
  return (error instanceof McpServerError && error.code === 'login_required') || error instanceof UnauthorizedError;
}

/** The `login_required` error for a server whose authorization needs a person (see needsLogin). */
export function loginRequired(name: string, error: unknown): McpServerError {
  if (error instanceof McpServerError && error.code === 'login_required') return error;
  return new McpServerError(name, `MCP server "${name}" needs you to log in (OAuth).`, 'login_required', error);
}

/** How a stdio server's process ended, to follow the server's name: "exited with code 1". */
export function describeExit(process: ChildProcessTransport | undefined): string {
  const exit = process?.exit;
  if (!exit) return 'closed its connection';
  if (exit.signal) return `was ended by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}

/** Why a server failed to start, with what to check where the user can fix it. */
export function describeStartError(error: unknown, config: McpServerConfig): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ENOENT' && isStdioServerConfig(config)) {
    return `the command "${config.command}" was not found; check "command" and the PATH`;
  }
  if (code === 'EACCES' && isStdioServerConfig(config)) {
    return `the command "${config.command}" is not executable`;
  }
  const status = (error instanceof StreamableHTTPError || error instanceof SseError) && error.code;
  if (typeof status === 'number' && status >= 400) {
    const hint = status === 401 || status === 403 ? '; check the credentials in "headers"' : '';
    return `the server answered HTTP ${status}${hint} (${describeThrown(error)})`;
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return 'it did not complete the MCP handshake in time (see "startupTimeoutMs")';
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return 'it closed the connection during the MCP handshake';
  }
  return describeThrown(error);
}

/** A failure's message with the server's last words on stderr, indented below it, when it left any. */
export function withStderrTail(message: string, tail: string): string {
  return tail ? `${message} Its last output on stderr:\n${indent(tail)}\n` : message;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

import { oauthConfigProblem } from '../auth/check-oauth-config.js';
import { McpServerError } from '../errors/index.js';
import type { McpServerConfig } from './mcp-server-config.js';

/**
 * A server name: letters, digits, `_` and `-`, at most 40 characters. Without `__`, so that a native name
 * splits back into its server and tool at the first `__`; and never `local`, which the XML protocol's
 * `server_name` keeps for the agent's own tools.
 */
const SERVER_NAME = /^[a-zA-Z0-9_-]{1,40}$/;

/**
 * Checks one server's configuration as an app or a config file wrote it. Throws McpServerError
 * (`invalid_server_config`) saying what is wrong and what to write instead.
 */
export function checkServerConfig(name: string, config: McpServerConfig): void {
  const fail = (problem: string): never => {
    throw new McpServerError(name, `MCP server "${name}": ${problem}`, 'invalid_server_config');
  };
  if (!SERVER_NAME.test(name) || name.includes('__')) {
    fail('a server name must be 1 to 40 letters, digits, "_" or "-", without "__" (it prefixes tool names).');
  }
  if (name === 'local') fail('"local" is the XML protocol\'s name for the agent\'s own tools; pick another name.');
  if (typeof config !== 'object' || config === null) fail('its configuration must be an object.');
  const record = config as unknown as Record<string, unknown>;
  const hasCommand = record.command !== undefined;
  const hasUrl = record.url !== undefined;
  if (hasCommand === hasUrl) {
    fail(
      hasCommand
        ? 'give either "command" (a program to start) or "url" (a server to reach), not both.'
        : 'give "command" (a program to start over stdio) or "url" (a Streamable HTTP endpoint).',
    );
  }
  if (hasCommand) {
    if (typeof record.command !== 'string' || record.command.trim() === '')
      fail('"command" must be a non-empty string.');
    if (record.args !== undefined && !isStringArray(record.args)) fail('"args" must be a list of strings.');
    if (record.env !== undefined && !isStringRecord(record.env)) fail('"env" must map names to string values.');
    if (record.cwd !== undefined && typeof record.cwd !== 'string') fail('"cwd" must be a string.');
    if (record.oauth !== undefined)
      fail('"oauth" is for a server with "url"; a program takes its credentials in "env".');
  } else {
    const url = typeof record.url === 'string' ? parseUrl(record.url) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      fail(`"url" must be an http:// or https:// URL, not ${JSON.stringify(record.url)}.`);
    }
    if (record.headers !== undefined && !isStringRecord(record.headers)) {
      fail('"headers" must map header names to string values.');
    }
    const transport = record.transport;
    if (transport !== undefined && transport !== 'auto' && transport !== 'streamable-http' && transport !== 'sse') {
      fail(`"transport" must be "auto", "streamable-http" or "sse", not ${JSON.stringify(transport)}.`);
    }
    const oauthProblem = record.oauth === undefined ? undefined : oauthConfigProblem(record.oauth);
    if (oauthProblem) fail(oauthProblem);
  }
  for (const field of ['toolTimeoutMs', 'startupTimeoutMs'] as const) {
    const value = record[field];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      fail(`"${field}" must be a finite number of milliseconds, 0 or more.`);
    }
  }
  const maxResourceBytes = record.maxResourceBytes;
  if (
    maxResourceBytes !== undefined &&
    !(Number.isSafeInteger(maxResourceBytes) && (maxResourceBytes as number) >= 1)
  ) {
    fail(`"maxResourceBytes" must be a whole number of bytes, 1 or more, not ${JSON.stringify(maxResourceBytes)}.`);
  }
  for (const field of ['includeTools', 'excludeTools'] as const) {
    if (record[field] !== undefined && !isStringArray(record[field])) fail(`"${field}" must be a list of tool names.`);
  }
  if (record.enabled !== undefined && typeof record.enabled !== 'boolean') fail('"enabled" must be true or false.');
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string')
  );
}

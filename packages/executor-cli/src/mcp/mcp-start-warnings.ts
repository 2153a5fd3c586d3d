import type { ToolRegistry } from '@agentloop/core';
import { loginHint } from './describe-auth.js';
import { mcpServersOf } from './mcp-session-plugin.js';

/** The most of a server's stderr line a warning shows: the line is one of the session's first. */
const MAX_STDERR_LINE = 160;
const STDERR_HEADING = ' Its last output on stderr:';

/**
 * One line for each of the session's MCP servers that failed to start: its name and why (what
 * @agentloop/mcp says happened, and the last line the server wrote to stderr, which is most often the
 * reason: a token not set, a package not found), and where to see the rest. Its tools are missing from the
 * session, and nothing else says so until the model or the user looks. None when every server started, or
 * none is configured.
 */
export function mcpStartWarnings(registry: ToolRegistry, more: string): string[] {
  const statuses = mcpServersOf(registry)?.status() ?? [];
  return statuses
    .filter((status) => status.state === 'failed')
    .map((status) => {
      if (status.auth?.state === 'login-needed') return `${loginHint(status.name)}; its tools are missing until then.`;
      const [first = '', ...rest] = (status.error ?? '').trim().split('\n');
      const prefix = `MCP server "${status.name}" failed to start: `;
      const what = (first.endsWith(STDERR_HEADING) ? first.slice(0, -STDERR_HEADING.length) : first)
        .replace(prefix, '')
        .replace(/[\s.:;,]+$/, '');
      const lastLine = rest
        .map((line) => line.trim())
        .filter(Boolean)
        .at(-1);
      const stderr = lastLine === undefined ? '' : `; it said: ${cut(lastLine)}`;
      return `${prefix}${what || 'no reason given'}${stderr}. Its tools are missing; ${more} shows more.`;
    });
}

function cut(line: string): string {
  return line.length > MAX_STDERR_LINE ? `${line.slice(0, MAX_STDERR_LINE - 1)}…` : line;
}

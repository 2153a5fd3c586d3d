import type { McpServerStatus } from '@agentloop/mcp';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { formatMcpServers } from './format-mcp-servers.js';

const names = ['create_issue', 'list_issues', 'comment_on_issue', 'close_issue', 'search_code', 'get_file'];
const server = {
  name: 'github',
  state: 'ready',
  transport: 'stdio',
  tools: names.map((name) => ({ name })),
  restarts: 0,
} as unknown as McpServerStatus;

describe('formatMcpServers', () => {
  it("wraps a server's tool list between names, under the list, to the width", () => {
    const rows = formatMcpServers([server], [], createStyle(false), 50).trimEnd().split('\n');

    expect(rows.slice(2)).toEqual([
      '    create_issue, list_issues, comment_on_issue,',
      '    close_issue, search_code, get_file',
    ]);
  });

  it('leaves the list on one line without a width (a pipe)', () => {
    const rows = formatMcpServers([server], [], createStyle(false)).trimEnd().split('\n');
    expect(rows[2]).toBe(`    ${names.join(', ')}`);
  });

  it("shows each server's OAuth state, and how to log in where one is needed", () => {
    const now = 1_000_000_000;
    const remote: McpServerStatus = { ...server, name: 'remote', transport: 'streamable-http', tools: [] };
    const text = formatMcpServers(
      [
        { ...remote, auth: { state: 'logged-in', expiresAt: now + 52 * 60_000 } },
        {
          ...remote,
          name: 'tracker',
          state: 'failed',
          error: 'MCP server "tracker" needs you to log in (OAuth).',
          auth: { state: 'login-needed' },
        },
      ],
      [],
      createStyle(false),
      Number.POSITIVE_INFINITY,
      now,
    );
    expect(text.split('\n').slice(1)).toEqual([
      '  remote  ready  streamable-http, 0 tools, oauth: logged in, expires in 52 min',
      '  tracker  failed  streamable-http, 0 tools, oauth: login needed',
      '    MCP server "tracker" needs you to log in: run `agentloop mcp login tracker`.',
      '',
    ]);
  });

  it('counts a server’s prompts, resources and resource templates where it has some', () => {
    const docs = {
      ...server,
      name: 'docs',
      tools: [],
      prompts: [{ name: 'review', arguments: [] }],
      resources: [
        { uri: 'docs://a', name: 'a' },
        { uri: 'docs://b', name: 'b' },
      ],
      resourceTemplates: [],
    } as unknown as McpServerStatus;
    const rows = formatMcpServers([docs, server], [], createStyle(false)).trimEnd().split('\n');
    expect(rows[1]).toBe('  docs  ready  stdio, 0 tools, 1 prompt, 2 resources');
    expect(rows[2]).toBe('  github  ready  stdio, 6 tools');
  });
});

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

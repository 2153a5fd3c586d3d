import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../config/index.js';
import { ServerTools } from './server-tools.js';

const call = async () => 'done';

function tool(name: string, description = `The ${name} tool.`): McpTool {
  return { name, description, inputSchema: { type: 'object' } } as McpTool;
}

function serverTools(config: Partial<McpServerConfig> = {}): ServerTools {
  return new ServerTools('web', { command: 'web-server', ...config } as McpServerConfig, call);
}

describe('ServerTools', () => {
  it('keeps the tools `includeTools` names, then drops those `excludeTools` names', () => {
    const tools = serverTools({ includeTools: ['search', 'fetch'], excludeTools: ['fetch'] });

    tools.set([tool('search'), tool('fetch'), tool('delete')]);

    expect(tools.tools.map((each) => each.name)).toEqual(['web__search']);
  });

  it('keeps the object of a tool that did not change, and makes a new one for a tool that did', () => {
    const tools = serverTools();
    tools.set([tool('search'), tool('fetch')]);
    const [search, fetch] = tools.tools;

    tools.set([tool('search'), tool('fetch', 'Fetches a page.')]);

    expect(tools.tools[0]).toBe(search);
    expect(tools.tools[1]).not.toBe(fetch);
    expect(tools.tools[1]?.description).toBe('Fetches a page.');
  });
});

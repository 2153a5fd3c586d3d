import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { toAgentloopTool } from './to-agentloop-tool.js';

const call = async () => 'done';

function tool(fields: Partial<McpTool>): McpTool {
  return { name: 'search', inputSchema: { type: 'object' }, ...fields } as McpTool;
}

describe('toAgentloopTool', () => {
  it('drops escape sequences, C1 controls and bidi overrides from the description, keeping newlines and tabs', () => {
    const description = 'Searches\x1b[2J\x1b]0;owned\x07 the web.\n\tSee \u202eevil\u202c docs\x9b31m.\r';

    const converted = toAgentloopTool('web', tool({ description }), call, undefined);

    expect(converted.description).toBe('Searches the web.\n\tSee evil docs.');
  });

  it('cleans a title that stands in for a missing description', () => {
    expect(toAgentloopTool('web', tool({ title: 'Web\u202e search' }), call, undefined).description).toBe('Web search');
    const annotated = tool({ annotations: { title: '\x1b[31mRed\x1b[0m search' } });
    expect(toAgentloopTool('web', annotated, call, undefined).description).toBe('Red search');
  });

  it('cleans descriptions and titles inside the input schema at every depth, and nothing else', () => {
    const inputSchema = {
      type: 'object' as const,
      title: 'Query\x1b[8m',
      properties: {
        query: { type: 'string', description: 'What to \u202efind\u202c\x85' },
        filters: {
          type: 'array',
          items: { type: 'object', properties: { site: { type: 'string', title: '\x9d8;;http://x\x9cSite' } } },
        },
        description: { type: 'string', enum: ['a\x1bb'], description: 'A field named description' },
      },
    };

    const converted = toAgentloopTool('web', tool({ inputSchema }), call, undefined);

    expect(converted.parameters).toStrictEqual({
      type: 'object',
      title: 'Query',
      properties: {
        query: { type: 'string', description: 'What to find' },
        filters: {
          type: 'array',
          items: { type: 'object', properties: { site: { type: 'string', title: 'Site' } } },
        },
        description: { type: 'string', enum: ['a\x1bb'], description: 'A field named description' },
      },
    });
    // The server's own object is left as it came.
    expect(inputSchema.properties.query.description).toBe('What to \u202efind\u202c\x85');
  });
});

import type { ToolContext } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import type { McpServerStatus } from '../connection/mcp-server-status.js';
import { readResourceTool } from './read-resource-tool.js';

const STATUS = {
  name: 'docs',
  resources: [{ uri: 'docs://split', name: 'split' }],
  resourceTemplates: [],
} as unknown as McpServerStatus;

const CONTEXT = { signal: new AbortController().signal } as unknown as ToolContext;

describe('read_resource', () => {
  it('reads on from the part and line a cut named, within one limit for all parts', async () => {
    const reader = {
      readResource: async () => [
        { uri: 'docs://split#1', text: 'a1\na2\n' },
        { uri: 'docs://split#2', text: 'b1\nb2\n' },
      ],
      maxResourceBytes: () => 6,
    };
    const tool = readResourceTool(reader, [STATUS]);
    expect(await tool.execute({ server: 'docs', uri: 'docs://split' }, CONTEXT)).toBe(
      "[resource <docs://split#1>]\na1\na2\n\n\n[part 2 of the resource's 2 not given: its parts give 6 bytes of text at once; read on with part 2.]",
    );
    expect(await tool.execute({ server: 'docs', uri: 'docs://split', part: 2, start_line: 2 }, CONTEXT)).toBe(
      '[resource <docs://split#2>]\nb2\n[line 2 of part 2 of 2, 6 bytes in 2 lines.]',
    );
    expect(tool.parameters).toMatchObject({ properties: { part: { type: 'integer', minimum: 1 } } });
  });

  it('reads on inside a line longer than the limit from start_char', async () => {
    const reader = {
      readResource: async () => [{ uri: 'docs://min.json', text: '{"a":1,"b":2}' }],
      maxResourceBytes: () => 7,
    };
    const tool = readResourceTool(reader, [STATUS]);
    expect(await tool.execute({ server: 'docs', uri: 'docs://min.json' }, CONTEXT)).toMatch(
      /^\{"a":1,\n\[line 1 is longer than 7 bytes, so it comes in pieces: characters 1-7 of its 13 are shown; read on with start_line 1, start_char 8 /,
    );
    expect(await tool.execute({ server: 'docs', uri: 'docs://min.json', start_line: 1, start_char: 8 }, CONTEXT)).toBe(
      '"b":2}\n[line 1 from character 8 of the resource\'s 13 bytes in 1 line.]',
    );
  });
});

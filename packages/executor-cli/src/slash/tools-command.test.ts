import { DefaultAgent, defineTool } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/memory-output.js';
import type { SlashContext } from './slash-command.js';
import { toolsCommand } from './tools-command.js';

const search = defineTool({
  name: 'search_files',
  description:
    'Searches the files of the workspace for a regular expression and lists the matching lines with their line numbers',
  parameters: z.object({ pattern: z.string() }),
  execute: () => '',
});

describe('/tools', () => {
  it('wraps a long description between words, under the description column', async () => {
    const output = new MemoryOutput(true, 70);
    const agent = new DefaultAgent(new ScriptedProvider([]), { tools: [search] });

    await toolsCommand.run('', { agent, output, style: createStyle(false) } as unknown as SlashContext);

    const rows = output.text.trimEnd().split('\n');
    const first = rows.findIndex((row) => row.startsWith('  search_files'));
    const entry = [rows[first], rows[first + 1]];
    expect(entry).toEqual([
      '  search_files     Searches the files of the workspace for a regular',
      '                   expression and lists the matching lines with their…',
    ]);
    expect(rows[first + 2]).toBeUndefined();
    expect(rows.every((row) => row.length <= 70)).toBe(true);
  });
});

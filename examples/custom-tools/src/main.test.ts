import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { runCustomToolsAgent, script } from './main.js';
import { calculatorTool, fileReadTool } from './tools/index.js';

const context = (workspace: string) => ({
  signal: new AbortController().signal,
  sessionId: 's',
  workspace,
  toolCallId: 't',
  reportProgress: () => {},
});

describe('custom-tools example', () => {
  it('searches, computes and completes with the scripted model', async () => {
    const lines: string[] = [];
    const provider = new ScriptedProvider(script);
    const result = await runCustomToolsAgent(provider, 'When was Node.js 24 released?', (line) => lines.push(line));
    expect(result.exit).toBe('task_completion');
    expect(lines.slice(0, 3)).toEqual([
      '> When was Node.js 24 released?',
      'I will look up the release date.',
      '→ web_search {"query":"Node.js 24 released"}',
    ]);
    expect(lines).toContain('Days in January to April, plus 6, gives the day of the year.');
    expect(lines.find((line) => line.startsWith('  ✓ [{"title":"Node.js 24 released"'))).toBeDefined();
    expect(lines).toContain('  ✓ 126');
    expect(lines.at(-1)).toBe('Node.js 24 was released on 6 May 2025 (day 126 of 2025).');
    expect(provider.requests[0]?.tools.map((tool) => tool.name)).toEqual([
      'task_completion',
      'ask_question',
      'converse',
      'calculator',
      'read_file',
      'web_search',
    ]);
    provider.assertDone();
  });

  it('refuses a division by zero with a message the model can act on', async () => {
    expect(() => calculatorTool.execute({ a: 1, b: 0, operation: 'divide' }, context('/'))).toThrow('Division by zero');
  });

  it('reads a file inside the workspace and refuses one outside it', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'agentloop-example-'));
    await writeFile(join(workspace, 'notes.txt'), 'hello');
    expect(await fileReadTool.execute({ path: 'notes.txt', maxBytes: 100 }, context(workspace))).toBe('hello');
    await expect(fileReadTool.execute({ path: '../etc/passwd', maxBytes: 100 }, context(workspace))).rejects.toThrow(
      'outside the workspace',
    );
  });
});

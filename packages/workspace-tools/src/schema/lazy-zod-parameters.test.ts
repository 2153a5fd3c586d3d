import type { Tool } from '@agentloop/tools';
import { ToolRegistry } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRunCommandTool } from '../command/index.js';
import { createWorkspaceTools } from '../workspace-tools.js';
import type { LazyZodParameters } from './lazy-zod-parameters.js';
import { lazyZodParameters } from './lazy-zod-parameters.js';

/** The tool as it was before: the same, with its zod schema as its parameters. */
async function withZodSchema(tool: Tool): Promise<Tool> {
  return { ...tool, parameters: await (tool.parameters as LazyZodParameters<unknown>).zodSchema() } as Tool;
}

/** Arguments each tool is checked with: valid ones, and each way a field can be wrong. */
const ARGUMENTS: Record<string, unknown>[] = [
  {},
  { path: 'a.txt' },
  { path: 3 },
  { path: 'a.txt', start_line: 0, end_line: 1.5 },
  { path: 'a.txt', start_line: '2', end_line: -1 },
  { path: 'a.txt', content: 'text' },
  { path: 'a.txt', content: null },
  { path: 'a.txt', old_text: 'a', new_text: 'b' },
  { path: 'a.txt', old_text: 'a', new_text: 'b', replace_all: 'yes' },
  { pattern: '*.ts', recursive: true, include_ignored: 1, offset: -1 },
  { path: 'src', offset: 2.5 },
  { pattern: '' },
  { pattern: 'main', glob: ['*.ts'], ignore_case: true, offset: Number.MAX_SAFE_INTEGER + 2 },
  { command: '' },
  { command: 'ls', directory: 'src', timeout_ms: 999 },
  { command: 'ls', timeout_ms: 10_000_000 },
  { command: 'ls', timeout_ms: 5000, extra: true },
];

describe("the workspace tools' parameters", () => {
  const tools = [...createWorkspaceTools(), createRunCommandTool({ maxTimeoutMs: 30_000, timeoutMs: 5_000 })];

  it.each(tools.map((tool) => [tool.name, tool] as const))(
    '%s sends the model the JSON Schema zod gives of its schema, byte for byte',
    async (_name, tool) => {
      const lazy = new ToolRegistry([tool]).get(tool.name)?.definition;
      const zod = new ToolRegistry([await withZodSchema(tool)]).get(tool.name)?.definition;
      expect(lazy).toBeDefined();
      expect(JSON.stringify(lazy)).toBe(JSON.stringify(zod));
    },
  );

  it.each(tools.map((tool) => [tool.name, tool] as const))(
    '%s checks arguments as zod does: the same messages, the same values with defaults',
    async (_name, tool) => {
      const lazy = new ToolRegistry([tool]).get(tool.name);
      const zod = new ToolRegistry([await withZodSchema(tool)]).get(tool.name);
      for (const args of ARGUMENTS) {
        expect({ args, outcome: await lazy?.validate(args) }).toEqual({ args, outcome: await zod?.validate(args) });
      }
    },
  );
});

describe('lazyZodParameters', () => {
  it('gives its JSON Schema without building the zod schema, and builds it once, on the first check', async () => {
    let built = 0;
    const parameters = lazyZodParameters({ type: 'object', properties: { name: { type: 'string' } } }, (zod) => {
      built += 1;
      return zod.object({ name: zod.string() });
    });
    const standard = parameters['~standard'];
    expect(standard.jsonSchema.input({ target: 'draft-2020-12' })).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
    });
    expect(built).toBe(0);
    const first = standard.validate({ name: 1 });
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ issues: [{ message: 'Invalid input: expected string, received number' }] });
    // Once built, a check answers at once.
    expect(standard.validate({ name: 'x', other: 1 })).toEqual({ value: { name: 'x' } });
    expect(built).toBe(1);
    expect(await parameters.zodSchema()).toBeInstanceOf(z.ZodObject);
  });

  it('gives each caller its own copy of the JSON Schema', () => {
    const parameters = lazyZodParameters({ type: 'object', properties: {} }, (zod) => zod.object({}));
    const copy = parameters['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    (copy as { properties: Record<string, unknown> }).properties.added = { type: 'string' };
    expect(parameters['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).toEqual({
      type: 'object',
      properties: {},
    });
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { ToolDefinitionError } from '../errors/index.js';
import type { JsonSchema } from '../tool.js';
import { taskCompletionWithOutput, taskCompletionWithOutputExit } from './task-completion-with-output.js';

const report = z.object({ title: z.string().min(1), tags: z.array(z.string()).default([]) });

async function validate(output: Parameters<typeof taskCompletionWithOutput>[0], args: unknown) {
  return taskCompletionWithOutput(output).validate(args);
}

describe('taskCompletionWithOutput', () => {
  it("gives task_completion's result the output's schema, keeping artifacts", () => {
    const { definition, loopControl } = taskCompletionWithOutput(report);
    expect(definition.name).toBe('task_completion');
    expect(loopControl).toBe(true);
    const properties = definition.inputSchema.properties as Record<string, JsonSchema>;
    expect(properties.result).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string', minLength: 1 }, tags: { type: 'array' } },
      required: ['title'],
    });
    expect(properties.artifacts).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(definition.inputSchema.required).toEqual(['result']);
  });

  it('validates the result with the schema itself, defaults applied', async () => {
    expect(await validate(report, { result: { title: 'Q3' }, artifacts: ['q3.md'] })).toEqual({
      ok: true,
      value: { result: { title: 'Q3', tags: [] }, artifacts: ['q3.md'] },
    });
  });

  it('names each field of the result that does not match, for the model to correct', async () => {
    const validation = await validate(report, { result: { title: '', tags: [3] } });
    expect(validation.ok).toBe(false);
    expect(!validation.ok && validation.message).toMatch(/^result\.title: .*; result\.tags\.0: .*string/);
  });

  it('says that a missing result is required, and checks artifacts', async () => {
    expect(await validate(report, { artifacts: 'a.md' })).toEqual({
      ok: false,
      message: 'result: required; artifacts: expected a list of strings',
    });
  });

  it('decodes a result sent as JSON text', async () => {
    expect(await validate(report, { result: '{"title":"Q3","tags":["sales"]}' })).toEqual({
      ok: true,
      value: { result: { title: 'Q3', tags: ['sales'] } },
    });
    expect((await validate(report, { result: 'Q3 went well' })).ok).toBe(false);
  });

  it('waits for an async refinement of the schema', async () => {
    const checked = z.object({ id: z.string() }).refine(async (value) => value.id.startsWith('A'), 'must start with A');
    expect(await validate(checked, { result: { id: 'B1' } })).toEqual({
      ok: false,
      message: 'result: must start with A',
    });
    expect((await validate(checked, { result: { id: 'A1' } })).ok).toBe(true);
  });

  it('takes a zod 3 schema', async () => {
    const output = z3.object({ count: z3.number().int() });
    expect(await validate(output, { result: { count: 2 } })).toEqual({ ok: true, value: { result: { count: 2 } } });
    expect((await validate(output, { result: { count: 2.5 } })).ok).toBe(false);
  });

  it('takes a JSON Schema and validates against it', async () => {
    const output = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
    };
    const properties = taskCompletionWithOutput(output).definition.inputSchema.properties as Record<string, JsonSchema>;
    expect(properties.result).toMatchObject(output);
    expect((await validate(output, { result: { city: 'Oslo', days: 3 } })).ok).toBe(true);
    const invalid = await validate(output, { result: { days: 0 } });
    expect(!invalid.ok && invalid.message).toContain('result.city');
  });

  it("moves a recursive schema's definitions to the root and its references with it", () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
    // zod writes a reference to the root (`#`) for a schema that contains itself.
    const tree = z.object({
      name: z.string(),
      get children() {
        return z.array(tree);
      },
    });
    for (const output of [z.object({ root: node }), tree]) {
      const schema = taskCompletionWithOutput(output).definition.inputSchema;
      const targets = [...JSON.stringify(schema).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1] ?? '');
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets) {
        // Every reference resolves from the envelope's root, to an object schema.
        const path = target.replace(/^#\/?/, '').split('/').filter(Boolean);
        const resolved = path.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], schema);
        expect(resolved, target).toMatchObject({ type: 'object', properties: { name: { type: 'string' } } });
      }
    }
  });

  it('refuses a schema that does not describe an object, saying to wrap it', () => {
    expect(() => taskCompletionWithOutput(z.array(z.string()))).toThrow(
      /^The output schema cannot be used for task_completion's result: it must describe an object \(wrap a list or a single value in one\)/,
    );
    expect(() => taskCompletionWithOutput(z.string())).toThrow(ToolDefinitionError);
  });

  it('refuses a field JSON cannot carry, naming it', () => {
    expect(() => taskCompletionWithOutput(z.object({ when: z.date() }))).toThrow(/when/);
  });

  it('refuses what is not a schema', () => {
    expect(() => taskCompletionWithOutput(null as unknown as JsonSchema)).toThrow(
      'The output schema must be a zod schema or a JSON Schema object, got null.',
    );
  });

  it('compiles a schema once', () => {
    expect(taskCompletionWithOutput(report)).toBe(taskCompletionWithOutput(report));
  });
});

describe('taskCompletionWithOutputExit', () => {
  it('makes the validated arguments the payload', () => {
    expect(taskCompletionWithOutputExit({ result: { title: 'Q3' }, artifacts: ['a.md'] })).toEqual({
      exit: 'task_completion',
      payload: { result: { title: 'Q3' }, artifacts: ['a.md'] },
    });
    expect(taskCompletionWithOutputExit({ artifacts: [] })).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { AgentloopError, ToolDefinitionError } from '../errors/index.js';
import { isStandardSchema, isZod3Schema, isZod4Schema, toJsonSchema } from './to-json-schema.js';

/** Calls `fn` and returns what it threw, failing the test when it did not throw. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('toJsonSchema', () => {
  it('converts a zod 4 object schema, keeping descriptions and listing only the required fields', () => {
    const parameters = z.object({
      query: z.string().describe('The search query'),
      limit: z.number().optional(),
    });

    expect(toJsonSchema(parameters, 'web_search')).toStrictEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'The search query' },
        limit: { type: 'number' },
      },
      required: ['query'],
    });
  });

  it('describes the input of a zod 4 schema, so a field with a default is optional for the model', () => {
    const parameters = z.object({ mode: z.enum(['fast', 'thorough']).default('fast') });

    const schema = toJsonSchema(parameters, 'search');

    expect(schema.properties).toStrictEqual({ mode: { type: 'string', enum: ['fast', 'thorough'], default: 'fast' } });
    expect(schema.required).toBeUndefined();
  });

  it('converts a zod 3 object schema', () => {
    const parameters = z3.object({
      query: z3.string().describe('The search query'),
      limit: z3.number().optional(),
    });

    expect(toJsonSchema(parameters, 'web_search')).toStrictEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'The search query' },
        limit: { type: 'number' },
      },
      required: ['query'],
      additionalProperties: false,
    });
  });

  it('inlines a zod 3 schema that is used twice instead of writing a $ref', () => {
    const point = z3.object({ x: z3.number(), y: z3.number() });
    const schema = toJsonSchema(z3.object({ from: point, to: point }), 'draw_line');

    expect(JSON.stringify(schema)).not.toContain('$ref');
    expect((schema.properties as Record<string, unknown>).to).toStrictEqual(
      (schema.properties as Record<string, unknown>).from,
    );
  });

  it('strips the $schema dialect that zod 4 adds', () => {
    expect(toJsonSchema(z.object({ a: z.string() }), 'tool')).not.toHaveProperty('$schema');
  });

  it('strips the $schema dialect that zod 3 adds', () => {
    expect(toJsonSchema(z3.object({ a: z3.string() }), 'tool')).not.toHaveProperty('$schema');
  });

  it('takes a plain JSON Schema as it is, without its $schema', () => {
    const parameters = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { path: { type: 'string', description: 'File to read' } },
      required: ['path'],
    };

    expect(toJsonSchema(parameters, 'read_file')).toStrictEqual({
      type: 'object',
      properties: { path: { type: 'string', description: 'File to read' } },
      required: ['path'],
    });
  });

  it('adds empty properties to an object schema that has none', () => {
    expect(toJsonSchema({ type: 'object' }, 'ping')).toStrictEqual({ type: 'object', properties: {} });
  });

  it('does not change the JSON Schema object it was given', () => {
    const parameters = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' };
    toJsonSchema(parameters, 'ping');

    expect(parameters).toStrictEqual({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' });
  });

  it('rejects a zod schema that is not an object, naming the tool and the type it got', () => {
    const error = thrownBy(() => toJsonSchema(z.string(), 'echo'));

    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect(error).toMatchObject({ code: 'invalid_tool_definition' });
    expect((error as Error).message).toBe(
      'Tool "echo": parameters must describe an object (z.object({...}) or { type: "object", ... }), got type "string".',
    );
  });

  it('rejects a JSON Schema that is not an object', () => {
    const error = thrownBy(() => toJsonSchema({ type: 'array', items: { type: 'string' } }, 'list'));

    expect(AgentloopError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('got type "array"');
  });

  it('rejects a JSON Schema without a type', () => {
    expect(() => toJsonSchema({ properties: { a: { type: 'string' } } }, 'untyped')).toThrow(
      /Tool "untyped": parameters must describe an object/,
    );
  });

  it('rejects a JSON Schema that JSON cannot hold, such as one that contains itself', () => {
    const parameters: Record<string, unknown> = { type: 'object', properties: {} };
    parameters.properties = { self: parameters };

    const error = thrownBy(() => toJsonSchema(parameters, 'loop'));

    expect(error).toMatchObject({ code: 'invalid_tool_definition' });
    expect((error as Error).message).toMatch(
      /^Tool "loop": reading its parameters threw "Converting circular structure/,
    );
  });

  it('copies a JSON Schema as JSON, so a getter in it is read once, at conversion', () => {
    let reads = 0;
    const parameters = {
      type: 'object',
      get properties() {
        reads++;
        return { path: { type: 'string' } };
      },
    };

    const schema = toJsonSchema(parameters, 'read_file');

    expect(schema).toStrictEqual({ type: 'object', properties: { path: { type: 'string' } } });
    expect(Object.getOwnPropertyDescriptor(schema, 'properties')).toHaveProperty('value');
    expect(reads).toBe(1);
  });

  it('rejects a Standard Schema that is not zod, saying what to pass instead', () => {
    const valibotLike = { '~standard': { version: 1, vendor: 'valibot', validate: (value: unknown) => ({ value }) } };

    expect(() => toJsonSchema(valibotLike, 'other')).toThrow(
      'Tool "other": its parameters are a Standard Schema that is not zod; pass a zod schema or a JSON Schema object.',
    );
  });
});

describe('schema kind detection', () => {
  it('tells zod 4, zod 3 and plain JSON Schema apart', () => {
    const zod4 = z.object({});
    const zod3 = z3.object({});
    const jsonSchema = { type: 'object' };

    expect([isZod4Schema(zod4), isZod3Schema(zod4), isStandardSchema(zod4)]).toEqual([true, false, true]);
    expect([isZod4Schema(zod3), isZod3Schema(zod3), isStandardSchema(zod3)]).toEqual([false, true, true]);
    expect([isZod4Schema(jsonSchema), isZod3Schema(jsonSchema), isStandardSchema(jsonSchema)]).toEqual([
      false,
      false,
      false,
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as zm } from 'zod/mini';
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

  it('converts a zod/mini schema, which has no toJSONSchema method of its own, keeping descriptions', () => {
    const parameters = zm.object({ query: zm.string().check(zm.describe('The search query')) });

    expect(toJsonSchema(parameters, 'web_search')).toStrictEqual({
      type: 'object',
      properties: { query: { type: 'string', description: 'The search query' } },
      required: ['query'],
    });
  });

  it('takes the JSON Schema a Standard Schema gives of itself, as a copy', () => {
    const own = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const arktypeLike = {
      '~standard': {
        version: 1,
        vendor: 'arktype',
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input: () => ({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...own }),
          output: () => own,
        },
      },
    };

    const schema = toJsonSchema(arktypeLike, 'weather');

    expect(schema).toStrictEqual(own);
    expect(schema.properties).not.toBe(own.properties);
  });

  it('rejects a Standard Schema that is not zod, saying what to pass instead', () => {
    const valibotLike = { '~standard': { version: 1, vendor: 'valibot', validate: (value: unknown) => ({ value }) } };

    expect(() => toJsonSchema(valibotLike, 'other')).toThrow(
      'Tool "other": its parameters are a Standard Schema that is not zod and gives no JSON Schema of itself (StandardJSONSchemaV1); pass a zod schema or a JSON Schema object.',
    );
  });
});

describe('toJsonSchema on types JSON cannot carry', () => {
  it('rejects a zod 4 z.date() field, naming it and saying what to use instead', () => {
    const error = thrownBy(() => toJsonSchema(z.object({ when: z.date() }), 'schedule'));

    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect(error).toMatchObject({ code: 'invalid_tool_definition' });
    expect((error as Error).message).toBe(
      'Tool "schedule": parameter "when" is z.date(), which JSON cannot carry, so no call from a model could ' +
        'pass validation. Use z.iso.datetime() (zod 3: z.string().datetime()) and convert it in execute, or ' +
        'z.coerce.date().',
    );
  });

  it.each([
    ['z.bigint()', z.bigint(), 'z.number().int()'],
    ['z.symbol()', z.symbol(), 'z.string()'],
    ['z.map()', z.map(z.string(), z.number()), 'z.record('],
    ['z.set()', z.set(z.string()), 'z.array('],
    ['z.function()', z.function(), 'a model cannot send code'],
    ['z.undefined()', z.undefined(), '.optional()'],
    ['z.void()', z.void(), '.optional()'],
    ['z.nan()', z.nan(), 'z.number()'],
    ['z.file()', z.file(), 'z.string()'],
    ['z.custom() or z.instanceof()', z.instanceof(Date), 'a schema of the JSON the model sends'],
    ['a z.literal() of undefined or a bigint', z.literal(3n), 'a string, number or boolean literal'],
  ])('rejects a zod 4 %s field', (type, field, instead) => {
    const error = thrownBy(() => toJsonSchema(z.object({ value: field }), 'tool'));

    expect(error).toMatchObject({ code: 'invalid_tool_definition' });
    expect((error as Error).message).toContain(`parameter "value" is ${type}, which JSON cannot carry`);
    expect((error as Error).message).toContain(instead);
  });

  it.each([
    ['inside an array of objects', z.object({ events: z.array(z.object({ at: z.date().optional() })) }), 'events[].at'],
    ['in a tuple', z.object({ pair: z.tuple([z.string(), z.date()]) }), 'pair[1]'],
    ['in a union', z.object({ id: z.union([z.string(), z.date()]) }), 'id'],
    ['as the values of a record', z.object({ due: z.record(z.string(), z.date()) }), 'due.*'],
    ['behind a default and a lazy', z.object({ at: z.lazy(() => z.date().default(new Date(0))) }), 'at'],
  ])('names the path of a zod 4 date %s', (_case, parameters, path) => {
    expect((thrownBy(() => toJsonSchema(parameters, 'tool')) as Error).message).toContain(
      `parameter "${path}" is z.date()`,
    );
  });

  it('names the outermost field when one type JSON cannot carry holds another', () => {
    const parameters = z.object({ index: z.map(z.string(), z.date()) });

    expect((thrownBy(() => toJsonSchema(parameters, 'tool')) as Error).message).toContain(
      'parameter "index" is z.map()',
    );
  });

  it.each([
    ['z.date()', z3.object({ when: z3.date() }), 'when'],
    ['z.bigint()', z3.object({ list: z3.array(z3.object({ n: z3.bigint() })) }), 'list[].n'],
    ['z.map()', z3.object({ index: z3.map(z3.string(), z3.string()) }), 'index'],
    ['z.set()', z3.object({ tags: z3.set(z3.string()) }), 'tags'],
    ['z.nan()', z3.object({ pair: z3.tuple([z3.string(), z3.nan()]) }), 'pair[1]'],
    ['a z.literal() of undefined or a bigint', z3.object({ big: z3.literal(3n) }), 'big'],
  ])('rejects a zod 3 %s field, naming its path', (type, parameters, path) => {
    const error = thrownBy(() => toJsonSchema(parameters, 'tool'));

    expect(error).toMatchObject({ code: 'invalid_tool_definition' });
    expect((error as Error).message).toContain(`parameter "${path}" is ${type}, which JSON cannot carry`);
  });

  it('accepts a coerced zod 4 date or bigint, described as the JSON value that coerces to one', () => {
    const schema = toJsonSchema(z.object({ at: z.coerce.date(), size: z.coerce.bigint() }), 'tool');

    expect(schema.properties).toStrictEqual({
      at: { type: 'string', format: 'date-time' },
      size: { type: 'integer', format: 'int64' },
    });
  });

  it('accepts a coerced zod 3 date', () => {
    expect(toJsonSchema(z3.object({ at: z3.coerce.date() }), 'tool').properties).toStrictEqual({
      at: { type: 'string', format: 'date-time' },
    });
  });

  it('accepts types that take JSON values: any, a preprocess, a literal that allows a number too', () => {
    const parameters = z.object({
      anything: z.any(),
      count: z.preprocess((value) => Number(value), z.number()),
      level: z.literal([1, undefined]),
    });

    expect(Object.keys(toJsonSchema(parameters, 'tool').properties as object)).toEqual(['anything', 'count', 'level']);
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

import { describe, expect, it } from 'vitest';
import { fromJSONSchema } from 'zod/v4';
import type { JsonSchema } from '../tool.js';
import { flatObjectCheck } from './flat-object-schema.js';
import { createArgumentValidator } from './validate-arguments.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    b: { type: 'number', description: 'second' },
    a: { type: 'integer' },
    name: { type: 'string' },
    loud: { type: 'boolean' },
  },
  required: ['a', 'b'],
};

/** What zod's own reading of the schema gives: the value, or undefined for a refusal. */
function zodValue(jsonSchema: JsonSchema, args: unknown): unknown {
  const outcome = fromJSONSchema(jsonSchema)['~standard'].validate(args) as { value?: unknown; issues?: unknown };
  return outcome.issues ? undefined : outcome.value;
}

const ARGUMENTS: unknown[] = [
  { a: 1, b: 2 },
  { b: 2.5, a: 1 },
  { a: 1, b: 2, name: 'x', loud: true },
  { a: 1, b: 2, extra: [1], name: 'x' },
  { a: 1.5, b: 2 },
  { a: 2 ** 60, b: 2 },
  { a: 1 },
  { a: 1, b: '2' },
  { a: 1, b: Number.POSITIVE_INFINITY },
  { a: 1, b: 2, name: null },
  { a: 1, b: 2, loud: 'yes' },
  { a: 1, b: 2, name: undefined },
  JSON.parse('{"a":1,"b":2,"__proto__":{"polluted":true}}'),
  [1, 2],
  null,
  'text',
];

describe('flatObjectCheck', () => {
  it.each(ARGUMENTS.map((args) => [JSON.stringify(args) ?? String(args), args]))(
    'never accepts %s where zod refuses it, and accepts it with the value zod gives, keys in its order',
    (_, args) => {
      const accepted = flatObjectCheck(schema)?.(args);
      const expected = zodValue(schema, args);
      // A refusal here is always safe: the validator then asks zod.
      if (expected === undefined) expect(accepted).toBeUndefined();
      else if (accepted !== undefined)
        expect([Object.keys(accepted), accepted]).toStrictEqual([Object.keys(expected as object), expected]);
    },
  );

  it('accepts the common valid calls without zod', () => {
    const check = flatObjectCheck(schema);
    expect(check?.({ b: 2, a: 1 })).toStrictEqual({ b: 2, a: 1 });
    expect(check?.({ a: 1, b: 2, extra: 'kept' })).toStrictEqual({ b: 2, a: 1, extra: 'kept' });
  });

  it('refuses extra fields when additionalProperties is false', () => {
    const check = flatObjectCheck({ ...schema, additionalProperties: false });
    expect(check?.({ a: 1, b: 2 })).toStrictEqual({ b: 2, a: 1 });
    expect(check?.({ a: 1, b: 2, extra: 1 })).toBeUndefined();
  });

  it.each([
    ['a nested object', { type: 'object', properties: { point: { type: 'object', properties: {} } } }],
    ['an array field', { type: 'object', properties: { list: { type: 'array', items: { type: 'number' } } } }],
    ['an enum', { type: 'object', properties: { mode: { type: 'string', enum: ['a', 'b'] } } }],
    ['a string constraint', { type: 'object', properties: { id: { type: 'string', minLength: 3 } } }],
    ['a required field it does not declare', { type: 'object', properties: {}, required: ['id'] }],
    ['additionalProperties as a schema', { type: 'object', properties: {}, additionalProperties: { type: 'number' } }],
    ['a field named __proto__', JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}')],
  ])('leaves %s to zod', (_, jsonSchema) => {
    expect(flatObjectCheck(jsonSchema as JsonSchema)).toBeUndefined();
  });
});

describe('createArgumentValidator with a flat JSON Schema', () => {
  const validate = createArgumentValidator(schema, schema);

  it('answers a valid call at once, with the value zod would give', () => {
    expect(validate({ a: 1, b: 2 })).toStrictEqual({ ok: true, value: { b: 2, a: 1 } });
  });

  it("still names what is wrong in zod's words when a call is refused", async () => {
    expect(await validate({ a: 1.5, b: 2 })).toStrictEqual({
      ok: false,
      message: 'a: Invalid input: expected int, received number',
    });
    expect(await validate({ a: 1 })).toStrictEqual({
      ok: false,
      message: 'b: Invalid input: expected number, received undefined',
    });
  });
});

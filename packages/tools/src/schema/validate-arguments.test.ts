import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import type { ToolParameters } from '../tool.js';
import { toJsonSchema } from './to-json-schema.js';
import { createArgumentValidator } from './validate-arguments.js';

/** A validator compiled the way the registry compiles one. */
const validatorFor = (parameters: ToolParameters) =>
  createArgumentValidator(parameters, toJsonSchema(parameters, 'tool'));

describe('createArgumentValidator with a zod 4 schema', () => {
  const order = validatorFor(
    z.object({
      customer: z.string(),
      items: z.array(z.object({ name: z.string(), quantity: z.number().int().positive() })),
      express: z.boolean().default(false),
    }),
  );

  it('gives the parsed value, with defaults applied', async () => {
    expect(await order({ customer: 'Ada', items: [{ name: 'tea', quantity: 2 }] })).toStrictEqual({
      ok: true,
      value: { customer: 'Ada', items: [{ name: 'tea', quantity: 2 }], express: false },
    });
  });

  it('names a missing field and what was expected', async () => {
    expect(await order({ items: [] })).toStrictEqual({
      ok: false,
      message: 'customer: Invalid input: expected string, received undefined',
    });
  });

  it('names a nested field by its dotted path', async () => {
    expect(await order({ customer: 'Ada', items: [{ name: 7, quantity: 1 }] })).toStrictEqual({
      ok: false,
      message: 'items.0.name: Invalid input: expected string, received number',
    });
  });

  it('lists every problem, separated by semicolons', async () => {
    expect(await order({ customer: 1, items: [{ name: 'tea', quantity: 0 }] })).toStrictEqual({
      ok: false,
      message:
        'customer: Invalid input: expected string, received number; items.0.quantity: Too small: expected number to be >0',
    });
  });

  it.each([
    ['an array', [1, 2]],
    ['null', null],
    ['string', 'tea'],
    ['number', 42],
  ])('rejects arguments that are not an object (%s) before the schema sees them', async (got, args) => {
    expect(await order(args)).toStrictEqual({ ok: false, message: `arguments: expected a JSON object, got ${got}` });
  });
});

describe('createArgumentValidator with a zod 3 schema', () => {
  const search = validatorFor(z3.object({ query: z3.string(), limit: z3.number().default(10) }));

  it('gives the parsed value, with defaults applied', async () => {
    expect(await search({ query: 'node 24' })).toStrictEqual({ ok: true, value: { query: 'node 24', limit: 10 } });
  });

  it('names the field and the problem', async () => {
    expect(await search({ query: 5 })).toStrictEqual({ ok: false, message: 'query: Expected string, received number' });
  });

  it('rejects arguments that are not an object', async () => {
    expect(await search(['node 24'])).toStrictEqual({
      ok: false,
      message: 'arguments: expected a JSON object, got an array',
    });
  });
});

describe('createArgumentValidator with a plain JSON Schema', () => {
  const readFile = validatorFor({
    type: 'object',
    properties: { path: { type: 'string' }, maxLines: { type: 'integer' } },
    required: ['path'],
  });

  it('accepts arguments that match the schema', async () => {
    expect(await readFile({ path: 'README.md', maxLines: 20 })).toStrictEqual({
      ok: true,
      value: { path: 'README.md', maxLines: 20 },
    });
  });

  it('names a missing required field', async () => {
    expect(await readFile({ maxLines: 20 })).toStrictEqual({
      ok: false,
      message: 'path: Invalid input: expected string, received undefined',
    });
  });

  it('names a field of the wrong type', async () => {
    expect(await readFile({ path: ['README.md'] })).toStrictEqual({
      ok: false,
      message: 'path: Invalid input: expected string, received array',
    });
  });

  it('checks numeric constraints such as integer', async () => {
    expect(await readFile({ path: 'README.md', maxLines: 2.5 })).toStrictEqual({
      ok: false,
      message: 'maxLines: Invalid input: expected int, received number',
    });
  });

  it('rejects arguments that are not an object', async () => {
    expect(await readFile(null)).toStrictEqual({ ok: false, message: 'arguments: expected a JSON object, got null' });
  });
});

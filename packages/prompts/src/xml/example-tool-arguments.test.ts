import { describe, expect, it } from 'vitest';
import { exampleToolArguments, STRING_PLACEHOLDER } from './example-tool-arguments.js';

const objectSchema = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});

describe('exampleToolArguments', () => {
  it('includes only the required properties', () => {
    expect(
      exampleToolArguments(objectSchema({ path: { type: 'string' }, limit: { type: 'integer' } }, ['path'])),
    ).toEqual({
      path: STRING_PLACEHOLDER,
    });
  });

  it('gives a placeholder for each JSON type', () => {
    const schema = objectSchema({
      s: { type: 'string' },
      i: { type: 'integer' },
      n: { type: 'number' },
      b: { type: 'boolean' },
      z: { type: 'null' },
    });

    expect(exampleToolArguments(schema)).toEqual({ s: '...', i: 1, n: 1, b: true, z: null });
  });

  it('prefers examples, then const, then default, then the first enum value', () => {
    const schema = objectSchema({
      a: { type: 'string', examples: ['from-examples'], default: 'no' },
      b: { type: 'string', const: 'fixed', default: 'no' },
      c: { type: 'integer', default: 5, enum: [1, 2] },
      d: { type: 'string', enum: ['utf8', 'base64'] },
    });

    expect(exampleToolArguments(schema)).toEqual({ a: 'from-examples', b: 'fixed', c: 5, d: 'utf8' });
  });

  it('takes an example named in the description', () => {
    const schema = objectSchema({
      path: { type: 'string', description: 'The file, e.g. src/index.ts.' },
      query: { type: 'string', description: 'What to find, for example "node release date".' },
    });

    expect(exampleToolArguments(schema)).toEqual({ path: 'src/index.ts', query: 'node release date' });
  });

  it('uses a sample for a known string format', () => {
    expect(exampleToolArguments(objectSchema({ url: { type: 'string', format: 'uri' } }))).toEqual({
      url: 'https://example.com',
    });
  });

  it('keeps numbers within their bounds', () => {
    const schema = objectSchema({
      a: { type: 'integer', minimum: 10 },
      b: { type: 'number', maximum: 0 },
      c: { type: 'integer', exclusiveMinimum: 3 },
    });

    expect(exampleToolArguments(schema)).toEqual({ a: 10, b: 0, c: 4 });
  });

  it('fills arrays with one item, or as many as minItems asks, and tuples per position', () => {
    const schema = objectSchema({
      tags: { type: 'array', items: { type: 'string' } },
      pair: { type: 'array', items: { type: 'integer' }, minItems: 2 },
      point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }] },
    });

    expect(exampleToolArguments(schema)).toEqual({ tags: ['...'], pair: [1, 1], point: [1, '...'] });
  });

  it('builds nested objects from their required properties', () => {
    const schema = objectSchema({
      edits: { type: 'array', items: objectSchema({ old: { type: 'string' }, note: { type: 'string' } }, ['old']) },
    });

    expect(exampleToolArguments(schema)).toEqual({ edits: [{ old: '...' }] });
  });

  it('shows a nullable value by its non-null member', () => {
    const schema = objectSchema({
      mode: { anyOf: [{ type: 'null' }, { type: 'string', enum: ['fast', 'slow'] }] },
      n: { type: ['null', 'integer'] },
    });

    expect(exampleToolArguments(schema)).toEqual({ mode: 'fast', n: 1 });
  });

  it('terminates on a recursive schema', () => {
    const schema = {
      ...objectSchema({ root: { $ref: '#/$defs/node' } }),
      $defs: { node: objectSchema({ child: { $ref: '#/$defs/node' } }) },
    };

    expect(JSON.stringify(exampleToolArguments(schema))).toMatch(/^\{"root":\{"child":/);
  });

  it('gives {} for a schema without properties', () => {
    expect(exampleToolArguments({ type: 'object' })).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import { formatToolParameters } from './format-tool-parameters.js';

const objectSchema = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

describe('formatToolParameters', () => {
  it('lists each property with its type, whether it is required and its description', () => {
    const schema = objectSchema(
      { path: { type: 'string', description: 'The file to read.' }, verbose: { type: 'boolean' } },
      ['path'],
    );

    expect(formatToolParameters(schema)).toBe(
      ['Parameters:', '- path (string, required): The file to read.', '- verbose (boolean, optional)'].join('\n'),
    );
  });

  it('says when a tool has no parameters', () => {
    expect(formatToolParameters({ type: 'object', properties: {} })).toBe('Parameters: none.');
  });

  it('lists enum values and the default', () => {
    const schema = objectSchema({ encoding: { type: 'string', enum: ['utf8', 'base64'], default: 'utf8' } });

    expect(formatToolParameters(schema)).toContain(
      '- encoding (string, optional; one of "utf8" | "base64"; default "utf8")',
    );
  });

  it('shows a const as the only allowed value', () => {
    expect(formatToolParameters(objectSchema({ kind: { type: 'string', const: 'file' } }))).toContain(
      '- kind (string, optional; always "file")',
    );
  });

  it('lists the values of a nullable enum, written as anyOf', () => {
    const schema = objectSchema({ mode: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] } });

    expect(formatToolParameters(schema)).toContain('- mode (string or null, optional; one of "a" | "b")');
  });

  it('names a type array with null last', () => {
    expect(formatToolParameters(objectSchema({ value: { type: ['null', 'integer'] } }))).toContain(
      '- value (integer or null, optional)',
    );
  });

  it('shows numeric bounds, but not the safe-integer bounds zod writes for every integer', () => {
    const schema = objectSchema({
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      offset: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    });

    const text = formatToolParameters(schema);
    expect(text).toContain('- limit (integer, optional; >= 1; <= 50)');
    expect(text).toContain('- offset (integer, optional)\n');
    expect(text).toContain('- ratio (number, optional; > 0; < 1)');
  });

  it('shows string and array length limits, format and pattern', () => {
    const schema = objectSchema({
      result: { type: 'string', minLength: 1 },
      code: { type: 'string', minLength: 3, maxLength: 8, pattern: '^[A-Z]+$' },
      site: { type: 'string', format: 'uri' },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 4 },
    });

    const text = formatToolParameters(schema);
    expect(text).toContain('- result (string, optional; not empty)');
    expect(text).toContain('- code (string, optional; pattern ^[A-Z]+$; at least 3 characters; at most 8 characters)');
    expect(text).toContain('- site (string, optional; format uri)');
    expect(text).toContain('- tags (array of string, optional; at least 1 item; at most 4 items)');
  });

  it('lists a nested object’s properties indented under it', () => {
    const schema = objectSchema({
      filter: {
        ...objectSchema({ language: { type: 'string', description: 'A language.' } }, ['language']),
        description: 'Narrows it.',
      },
    });

    expect(formatToolParameters(schema)).toBe(
      ['Parameters:', '- filter (object, optional): Narrows it.', '  - language (string, required): A language.'].join(
        '\n',
      ),
    );
  });

  it('lists the fields of an array’s object items indented under it', () => {
    const schema = objectSchema(
      {
        edits: {
          type: 'array',
          items: objectSchema({ old: { type: 'string' }, new: { type: 'string' } }, ['old', 'new']),
        },
      },
      ['edits'],
    );

    expect(formatToolParameters(schema)).toBe(
      [
        'Parameters:',
        '- edits (array of object, required)',
        '  - old (string, required)',
        '  - new (string, required)',
      ].join('\n'),
    );
  });

  it('names tuples and records by their member types', () => {
    const schema = objectSchema({
      point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
    });

    const text = formatToolParameters(schema);
    expect(text).toContain('- point ([number, number], optional)');
    expect(text).toContain('- headers (object with string values, optional)');
  });

  it('follows local $refs', () => {
    const schema = {
      ...objectSchema({ from: { $ref: '#/$defs/point' } }, ['from']),
      $defs: { point: objectSchema({ x: { type: 'number' } }, ['x']) },
    };

    expect(formatToolParameters(schema)).toBe(
      ['Parameters:', '- from (object, required)', '  - x (number, required)'].join('\n'),
    );
  });

  it('stops at a recursive schema instead of looping', () => {
    const schema = {
      ...objectSchema({ root: { $ref: '#/$defs/node' } }),
      $defs: { node: objectSchema({ child: { $ref: '#/$defs/node' } }) },
    };

    const lines = formatToolParameters(schema).split('\n');
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(lines[1]).toBe('- root (object, optional)');
  });

  it('reads a property without a usable schema as any', () => {
    expect(formatToolParameters(objectSchema({ data: {}, flag: true }))).toBe(
      ['Parameters:', '- data (any, optional)', '- flag (any, optional)'].join('\n'),
    );
  });

  it('puts a multi-line description on the property’s line', () => {
    expect(
      formatToolParameters(objectSchema({ q: { type: 'string', description: 'First line.\n  Second line.' } })),
    ).toContain('- q (string, optional): First line. Second line.');
  });
});

import type { JsonSchema } from '@agentloop/spec';
import {
  resolveSchema,
  schemaAlternatives,
  schemaItems,
  schemaProperties,
  schemaTupleItems,
  schemaTypes,
} from './schema-node.js';

const MAX_DEPTH = 6;
/** The value of a string that neither the schema nor its description gives an example for. */
export const STRING_PLACEHOLDER = '...';

// Samples for common string formats, so an example call also passes the tool's validation.
const FORMAT_SAMPLES: Record<string, string> = {
  uri: 'https://example.com',
  url: 'https://example.com',
  email: 'user@example.com',
  date: '2025-01-31',
  'date-time': '2025-01-31T12:00:00Z',
  time: '12:00:00',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
};

// "The file's path, e.g. src/index.ts" gives `src/index.ts`; a quoted example is taken whole.
const DESCRIBED_EXAMPLE = /\b(?:e\.g\.|for example|such as)[,:]?\s+(?:["'`]([^"'`]+)["'`]|([^\s,;()]+))/i;

/**
 * Example arguments for a tool's example call, built from its JSON Schema. Only required properties are
 * included (recursively): that is always a valid call, and it does not teach a model to pass every
 * optional parameter with a made-up value. Each value is, in order of preference: the schema's first
 * `examples` entry, its `const`, its `default`, its first `enum` value; then by type: a string is a sample
 * for its `format`, an example named in its description ("e.g. …") or `"..."`; a number is 1 (kept within
 * `minimum`/`maximum`); a boolean is `true`; an array holds one example item. Never throws.
 */
export function exampleToolArguments(inputSchema: JsonSchema): Record<string, unknown> {
  const value = exampleValue(inputSchema, inputSchema, 0);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function exampleValue(node: unknown, root: JsonSchema, depth: number): unknown {
  const schema = resolveSchema(node, root);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  // A union (`anyOf`, zod's nullable) is shown by its first member that is not just null.
  const alternative = schemaAlternatives(schema, root).find((member) =>
    schemaTypes(member, root).some((type) => type !== 'null'),
  );
  if (alternative && schema.type === undefined) return exampleValue(alternative, root, depth + 1);
  const types = schemaTypes(schema, root);
  const type = types.find((candidate) => candidate !== 'null') ?? types[0] ?? 'string';
  switch (type) {
    case 'object':
      return depth >= MAX_DEPTH ? {} : exampleObject(schema, root, depth);
    case 'array':
      return depth >= MAX_DEPTH ? [] : exampleArray(schema, root, depth);
    case 'integer':
    case 'number':
      return exampleNumber(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return exampleString(schema);
  }
}

function exampleObject(schema: JsonSchema, root: JsonSchema, depth: number): Record<string, unknown> {
  const example: Record<string, unknown> = {};
  for (const property of schemaProperties(schema, root)) {
    if (property.required) example[property.name] = exampleValue(property.schema, root, depth + 1);
  }
  return example;
}

// One item, or as many as `minItems` asks for; a tuple gets one value per position.
function exampleArray(schema: JsonSchema, root: JsonSchema, depth: number): unknown[] {
  const tuple = schemaTupleItems(schema, root);
  if (tuple) return tuple.map((item) => exampleValue(item, root, depth + 1));
  const items = schemaItems(schema, root);
  if (items === undefined) return [];
  const count = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1;
  return Array.from({ length: Math.min(count, 10) }, () => exampleValue(items, root, depth + 1));
}

function exampleNumber(schema: JsonSchema): number {
  let value = 1;
  if (typeof schema.minimum === 'number' && schema.minimum > value) value = schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number' && schema.exclusiveMinimum >= value)
    value = Math.floor(schema.exclusiveMinimum) + 1;
  if (typeof schema.maximum === 'number' && schema.maximum < value) value = schema.maximum;
  if (typeof schema.exclusiveMaximum === 'number' && schema.exclusiveMaximum <= value)
    value = Math.ceil(schema.exclusiveMaximum) - 1;
  return value;
}

function exampleString(schema: JsonSchema): string {
  const sample = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format] : undefined;
  if (sample !== undefined) return sample;
  const match = typeof schema.description === 'string' ? DESCRIBED_EXAMPLE.exec(schema.description) : null;
  const described = (match?.[1] ?? match?.[2])?.replace(/[.:]+$/, '');
  return described || STRING_PLACEHOLDER;
}

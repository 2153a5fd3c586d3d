import type { JsonSchema } from '@agentloop/spec';
import {
  ownSchemaTypes,
  resolveSchema,
  schemaAlternatives,
  schemaEnum,
  schemaItems,
  schemaProperties,
  schemaRecordValues,
  schemaTupleItems,
} from './schema-node.js';

// Nested objects past this depth are named by type only: a prompt that lists a deep tree in full costs
// more tokens than a small model gains from it.
const MAX_DEPTH = 4;
// zod writes an integer's bounds as ±MAX_SAFE_INTEGER; they say nothing a model needs.
const SAFE_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * Renders a tool's parameters as an indented list a small model can follow, one line per property:
 * `- name (type, required|optional; constraints): description`. Enum values, defaults, bounds and formats
 * go in the parentheses; an object's properties, and the properties of an array's object items, follow
 * indented under it. Gives `Parameters: none.` for a tool without parameters. Never throws.
 */
export function formatToolParameters(inputSchema: JsonSchema): string {
  const lines = propertyLines(resolveSchema(inputSchema, inputSchema), inputSchema, 0);
  return lines.length === 0 ? 'Parameters: none.' : ['Parameters:', ...lines].join('\n');
}

function propertyLines(schema: JsonSchema, root: JsonSchema, depth: number): string[] {
  const lines: string[] = [];
  for (const property of schemaProperties(schema, root)) {
    const facts = [`${typeName(property.schema, root, depth)}, ${property.required ? 'required' : 'optional'}`];
    facts.push(...constraints(property.schema, root));
    const head = `${'  '.repeat(depth)}- ${property.name} (${facts.join('; ')})`;
    const description = typeof property.schema.description === 'string' ? oneLine(property.schema.description) : '';
    lines.push(description ? `${head}: ${description}` : head);
    if (depth + 1 < MAX_DEPTH) lines.push(...propertyLines(fieldsOf(property.schema, root), root, depth + 1));
  }
  return lines;
}

/** `string`, `integer or null`, `array of string`, `[string, number]`, `object with number values`; `any` when the schema says nothing. */
function typeName(schema: JsonSchema, root: JsonSchema, depth: number): string {
  if (depth > MAX_DEPTH) return 'any';
  const names = new Set<string>();
  for (const type of ownSchemaTypes(schema)) names.add(composedTypeName(type, schema, root, depth));
  for (const member of schemaAlternatives(schema, root)) names.add(typeName(member, root, depth + 1));
  if (names.size === 0) return 'any';
  return [...names].sort((a, b) => Number(a === 'null') - Number(b === 'null')).join(' or ');
}

function composedTypeName(type: string, schema: JsonSchema, root: JsonSchema, depth: number): string {
  if (type === 'array') {
    const tuple = schemaTupleItems(schema, root);
    if (tuple) return `[${tuple.map((item) => typeName(item, root, depth + 1)).join(', ')}]`;
    const items = schemaItems(schema, root);
    return items ? `array of ${typeName(items, root, depth + 1)}` : 'array';
  }
  const values = type === 'object' && schema.properties === undefined ? schemaRecordValues(schema, root) : undefined;
  return values ? `object with ${typeName(values, root, depth + 1)} values` : type;
}

/** The schema whose properties are listed under a property: the object itself, or an array's item. */
function fieldsOf(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (schema.properties !== undefined) return schema;
  const items = ownSchemaTypes(schema).includes('array') ? schemaItems(schema, root) : undefined;
  return items?.properties !== undefined ? items : {};
}

function constraints(schema: JsonSchema, root: JsonSchema): string[] {
  const facts: string[] = [];
  const values = schemaEnum(schema, root);
  if (values?.length === 1) facts.push(`always ${literal(values[0])}`);
  else if (values) facts.push(`one of ${values.map(literal).join(' | ')}`);
  if (typeof schema.format === 'string') facts.push(`format ${schema.format}`);
  if (typeof schema.pattern === 'string') facts.push(`pattern ${schema.pattern}`);
  facts.push(...bound(schema.minimum, '>='), ...bound(schema.exclusiveMinimum, '>'));
  facts.push(...bound(schema.maximum, '<='), ...bound(schema.exclusiveMaximum, '<'));
  if (schema.minLength === 1) facts.push('not empty');
  else if (typeof schema.minLength === 'number' && schema.minLength > 1)
    facts.push(`at least ${count(schema.minLength, 'character')}`);
  if (typeof schema.maxLength === 'number') facts.push(`at most ${count(schema.maxLength, 'character')}`);
  if (typeof schema.minItems === 'number' && schema.minItems > 0)
    facts.push(`at least ${count(schema.minItems, 'item')}`);
  if (typeof schema.maxItems === 'number') facts.push(`at most ${count(schema.maxItems, 'item')}`);
  if ('default' in schema) facts.push(`default ${literal(schema.default)}`);
  return facts;
}

function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`;
}

function bound(value: unknown, operator: string): string[] {
  return typeof value === 'number' && Math.abs(value) < SAFE_BOUND ? [`${operator} ${value}`] : [];
}

function literal(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

// A property is one list item; a description's own line breaks would split it.
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

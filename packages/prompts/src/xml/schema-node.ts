// Reading a tool's JSON Schema for the prompt. Schemas come from zod, zod-to-json-schema or a tool author's
// hand, so the readers accept what any of them writes (type arrays, anyOf, local $refs) and never throw:
// whatever they cannot make sense of reads as `any`, since a prompt must still be built.
import type { JsonSchema } from '@agentloop/spec';

/** One property of an object schema. */
export interface SchemaProperty {
  /** The property's name. */
  readonly name: string;
  /** The property's schema, with `$ref`s followed. */
  readonly schema: JsonSchema;
  /** True when the object lists it in `required`. */
  readonly required: boolean;
}

// A recursive schema (a tree node with children of its own type) would otherwise be followed forever.
const MAX_REF_HOPS = 8;

/** The node as a schema object, with local `$ref`s (`#/$defs/…`, `#/definitions/…`) followed in `root`. */
export function resolveSchema(node: unknown, root: JsonSchema): JsonSchema {
  let schema = asObject(node);
  for (let hop = 0; hop < MAX_REF_HOPS && typeof schema.$ref === 'string'; hop++) {
    const { $ref, ...rest } = schema;
    schema = { ...asObject(resolvePointer(root, $ref)), ...rest };
  }
  return schema;
}

/** The properties of an object schema, in the schema's own order (which keeps the prompt stable). */
export function schemaProperties(schema: JsonSchema, root: JsonSchema): SchemaProperty[] {
  const properties = asObject(schema.properties);
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : [],
  );
  return Object.keys(properties).map((name) => ({
    name,
    schema: resolveSchema(properties[name], root),
    required: required.has(name),
  }));
}

/** The JSON types a schema allows, `null` last; inferred from `const`, `enum`, `properties` or `items` when `type` is absent. */
export function schemaTypes(schema: JsonSchema, root: JsonSchema): string[] {
  const types = new Set<string>(ownSchemaTypes(schema));
  for (const member of schemaAlternatives(schema, root)) {
    for (const type of schemaTypes(member, root)) types.add(type);
  }
  return [...types].sort((a, b) => Number(a === 'null') - Number(b === 'null'));
}

/** The members of `anyOf` / `oneOf`, resolved. */
export function schemaAlternatives(schema: JsonSchema, root: JsonSchema): JsonSchema[] {
  const members = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
  return members.map((member) => resolveSchema(member, root));
}

/**
 * The values a schema allows when it lists them: its `const`, its `enum`, or those of its `anyOf` /
 * `oneOf` members (zod writes a nullable enum as `anyOf: [{ enum }, { type: 'null' }]`).
 */
export function schemaEnum(schema: JsonSchema, root: JsonSchema): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  const values = schemaAlternatives(schema, root).flatMap((member) => schemaEnum(member, root) ?? []);
  return values.length > 0 ? values : undefined;
}

/** The item schemas of a tuple (`prefixItems`, or draft-07's `items` array), resolved; undefined for other arrays. */
export function schemaTupleItems(schema: JsonSchema, root: JsonSchema): JsonSchema[] | undefined {
  const items = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined;
  return items?.map((item) => resolveSchema(item, root));
}

/** The schema of a (non-tuple) array's items, resolved; undefined when the array says nothing about them. */
export function schemaItems(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  const items = schema.items;
  return typeof items === 'object' && items !== null && !Array.isArray(items) ? resolveSchema(items, root) : undefined;
}

/** The schema of a record's values (`additionalProperties` as a schema), resolved. */
export function schemaRecordValues(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  const values = schema.additionalProperties;
  return typeof values === 'object' && values !== null && !Array.isArray(values)
    ? resolveSchema(values, root)
    : undefined;
}

/** The types a schema itself declares or implies, without its `anyOf` / `oneOf` members. */
export function ownSchemaTypes(schema: JsonSchema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === 'string');
  if ('const' in schema) return [jsonType(schema.const)];
  if (Array.isArray(schema.enum)) return schema.enum.map(jsonType);
  if (schema.properties !== undefined) return ['object'];
  if (schema.items !== undefined || schema.prefixItems !== undefined) return ['array'];
  return [];
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'object' ? 'object' : typeof value;
}

function resolvePointer(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#')) return {};
  const segments = ref.slice(1).split('/').filter(Boolean);
  let target: unknown = root;
  for (const segment of segments) {
    target = asObject(target)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return target;
}

function asObject(value: unknown): JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : {};
}

import type { JsonSchema } from '../tool.js';

/** What a field of a flat object schema may be: the JSON Schema types checked here exactly as zod checks them. */
const FIELD_CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === 'string',
  // zod's z.number() refuses Infinity and NaN, and z.int() an integer outside the safe range.
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  integer: (value) => Number.isSafeInteger(value),
  boolean: (value) => typeof value === 'boolean',
};
const FIELD_KEYS: ReadonlySet<string> = new Set(['type', 'description']);
const OBJECT_KEYS: ReadonlySet<string> = new Set([
  'type',
  'properties',
  'required',
  'description',
  'additionalProperties',
]);

/**
 * Accepts valid arguments of the simplest plain JSON Schemas without loading zod: an object whose fields
 * are strings, numbers, integers or booleans (with a description at most), some of them required. Returns
 * undefined for any other schema.
 *
 * Why: a tool written with plain JSON Schema had zod 4 (about 3 MB of heap, a hundred modules) loaded for
 * its first call, only to read `{ a: number, b: number }`; the bare SDK loop it is compared with loads
 * nothing, and a process's heap is what limits how many loops it runs at once. The check returned only
 * says yes, with the value zod would give (its fields in the schema's order, then any others, as zod's
 * loose object does), or no (undefined): the validator then asks zod, so that every refusal keeps zod's
 * field-level message.
 */
export function flatObjectCheck(jsonSchema: JsonSchema): ((args: unknown) => object | undefined) | undefined {
  if (jsonSchema.type !== 'object' || !Object.keys(jsonSchema).every((key) => OBJECT_KEYS.has(key))) return undefined;
  const { properties = {}, required = [], additionalProperties } = jsonSchema;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return undefined;
  if (
    !Array.isArray(required) ||
    !required.every((name) => typeof name === 'string' && Object.hasOwn(properties, name))
  )
    return undefined;
  if (additionalProperties !== undefined && additionalProperties !== false) return undefined;
  const fields: { name: string; check: (value: unknown) => boolean; required: boolean }[] = [];
  for (const [name, field] of Object.entries(properties as Record<string, unknown>)) {
    if (name === '__proto__' || typeof field !== 'object' || field === null) return undefined;
    if (!Object.keys(field).every((key) => FIELD_KEYS.has(key))) return undefined;
    const { type, description } = field as { type?: unknown; description?: unknown };
    const check = typeof type === 'string' && Object.hasOwn(FIELD_CHECKS, type) ? FIELD_CHECKS[type] : undefined;
    if (!check || (description !== undefined && typeof description !== 'string')) return undefined;
    fields.push({ name, check, required: required.includes(name) });
  }
  const closed = additionalProperties === false;
  return (args) => {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
    const input = args as Record<string, unknown>;
    const value: Record<string, unknown> = {};
    let known = 0;
    for (const field of fields) {
      if (!Object.hasOwn(input, field.name)) {
        if (field.required) return undefined;
        continue;
      }
      const fieldValue = input[field.name];
      if (!field.check(fieldValue)) return undefined;
      value[field.name] = fieldValue;
      known++;
    }
    const keys = Object.keys(input);
    if (keys.length === known) return value;
    // A "__proto__" key (JSON.parse makes it an own key) would set the copy's prototype: zod copies it safely.
    if (closed || Object.hasOwn(input, '__proto__')) return undefined;
    for (const key of keys) if (!Object.hasOwn(value, key)) value[key] = input[key];
    return value;
  };
}

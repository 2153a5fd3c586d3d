import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '../tool.js';

// The loop-control tools' payloads are a few text fields. Declaring them with zod put zod (about a
// hundred modules, the largest part of core's start-up) on the import path of every app, including apps
// whose own tools are plain JSON Schema. These builders give the same checks and
// the same JSON Schema, as a Standard Schema that also carries its JSON Schema (StandardJSONSchemaV1),
// which toJsonSchema reads without a conversion.

/** The outcome of checking one field: its value, or what is wrong with it. */
type FieldCheck<Value> = { value: Value } | { message: string };

/** One field of a payload: its JSON Schema and its check. */
export interface PayloadField<Value> {
  /** The field's JSON Schema, as the model sees it. */
  readonly jsonSchema: JsonSchema;
  /** True when the field may be left out. */
  readonly optional: boolean;
  /** Checks a present value; gives the value to keep (text is trimmed) or a message for the model. */
  check(value: unknown): FieldCheck<Value>;
}

/** The schema of a payload: a Standard Schema with its JSON Schema, and a synchronous check. */
export interface PayloadSchema<Payload> extends StandardSchemaV1<unknown, Payload> {
  readonly '~standard': StandardSchemaV1.Props<unknown, Payload> & StandardJSONSchemaV1.Props<unknown, Payload>;
  /** Checks a payload at once (the checks are synchronous), giving the payload or the issues. */
  check(value: unknown): StandardSchemaV1.Result<Payload>;
}

/** A required text field: trimmed, and not empty once trimmed. */
export function requiredText(description: string): PayloadField<string> {
  return {
    jsonSchema: { type: 'string', minLength: 1, description },
    optional: false,
    check: (value) => {
      if (typeof value !== 'string') return { message: `expected text, got ${describeType(value)}` };
      const trimmed = value.trim();
      return trimmed === '' ? { message: 'must not be empty' } : { value: trimmed };
    },
  };
}

/** An optional list of texts, of at most `maxItems` entries when given. */
export function optionalTextList(
  description: string,
  limits: { maxItems?: number } = {},
): PayloadField<string[] | undefined> {
  const { maxItems } = limits;
  return {
    jsonSchema: {
      description,
      ...(maxItems === undefined ? {} : { maxItems }),
      type: 'array',
      items: { type: 'string' },
    },
    optional: true,
    check: (value) => {
      if (!Array.isArray(value)) return { message: `expected a list of texts, got ${describeType(value)}` };
      const index = value.findIndex((item) => typeof item !== 'string');
      if (index >= 0) return { message: `expected a list of texts, got ${describeType(value[index])} at ${index}` };
      if (maxItems !== undefined && value.length > maxItems) {
        return { message: `expected at most ${maxItems} items, got ${value.length}` };
      }
      return { value: [...value] };
    },
  };
}

/**
 * The schema of an object payload with these fields. Fields not listed are dropped from the value, as
 * zod's `z.object` does; a field given as `undefined` counts as left out.
 */
export function payloadSchema<Payload extends object>(
  fields: {
    [Key in keyof Payload]-?: PayloadField<Payload[Key]>;
  },
): PayloadSchema<Payload> {
  const entries = Object.entries(fields) as [string, PayloadField<unknown>][];
  const jsonSchema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(entries.map(([key, field]) => [key, field.jsonSchema])),
    required: entries.filter(([, field]) => !field.optional).map(([key]) => key),
  };
  const check = (value: unknown): StandardSchemaV1.Result<Payload> => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { issues: [{ message: `expected a JSON object, got ${describeType(value)}` }] };
    }
    const payload: Record<string, unknown> = {};
    const issues: StandardSchemaV1.Issue[] = [];
    for (const [key, field] of entries) {
      const given = (value as Record<string, unknown>)[key];
      if (given === undefined) {
        if (!field.optional) issues.push({ message: 'required', path: [key] });
        continue;
      }
      const outcome = field.check(given);
      if ('message' in outcome) issues.push({ message: outcome.message, path: [key] });
      else payload[key] = outcome.value;
    }
    return issues.length > 0 ? { issues } : { value: payload as Payload };
  };
  // Each call gets its own copy, so that a caller changing what it got cannot change what others see.
  const copy = (): JsonSchema => structuredClone(jsonSchema);
  return {
    '~standard': {
      version: 1,
      vendor: 'agentloop',
      validate: check,
      jsonSchema: { input: copy, output: copy },
    },
    check,
  };
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}

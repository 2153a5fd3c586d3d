import type { $ZodType } from 'zod/v4/core';
import { toJSONSchema } from 'zod/v4/core';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { ToolDefinitionError } from '../errors/index.js';
import type { JsonSchema, ToolParameters } from '../tool.js';

/** True when the value is a zod 4 schema (zod 4 keeps its internals under `_zod`). */
export function isZod4Schema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** True when the value is a zod 3 schema (`_def` and `safeParse`, no `_zod`). */
export function isZod3Schema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_def' in value && 'safeParse' in value && !('_zod' in value);
}

/** True when the value speaks Standard Schema (zod 3.24+ and zod 4 both do). */
export function isStandardSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '~standard' in value;
}

/**
 * Converts a tool's parameters to a JSON Schema object. zod 4 goes through `z.toJSONSchema` and zod 3
 * through `zod-to-json-schema` (which returns an empty schema for zod 4 without complaint, hence the
 * split). A plain JSON Schema is taken as it is. Throws ToolDefinitionError when the result does not
 * describe an object, since tool arguments are always a JSON object.
 */
export function toJsonSchema(parameters: ToolParameters, toolName: string): JsonSchema {
  let schema: JsonSchema;
  if (isZod4Schema(parameters)) {
    schema = toJSONSchema(parameters as unknown as $ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } else if (isZod3Schema(parameters)) {
    schema = zodToJsonSchema(parameters as unknown as Parameters<typeof zodToJsonSchema>[0], {
      $refStrategy: 'none',
    }) as JsonSchema;
  } else if (isStandardSchema(parameters)) {
    throw new ToolDefinitionError(
      `Tool "${toolName}": its parameters are a Standard Schema that is not zod; pass a zod schema or a JSON Schema object.`,
    );
  } else {
    schema = { ...parameters };
  }
  const { $schema: _dialect, ...withoutDialect } = schema;
  if (withoutDialect.type !== 'object') {
    throw new ToolDefinitionError(
      `Tool "${toolName}": parameters must describe an object (z.object({...}) or { type: "object", ... }), got type ${JSON.stringify(withoutDialect.type)}.`,
    );
  }
  return { properties: {}, ...withoutDialect };
}

import type { StandardJSONSchemaV1 } from '@standard-schema/spec';
import type { $ZodType, toJSONSchema } from 'zod/v4/core';
import { ToolDefinitionError } from '../errors/index.js';
import { type ZodToJsonSchema, zod4CoreLibrary, zodToJsonSchemaLibrary } from '../libraries/tool-libraries.js';
import type { JsonSchema, ToolParameters } from '../tool.js';
import { readToolParameters } from './read-tool-parameters.js';
import {
  coercedZod4Schema,
  fieldPath,
  type UnrepresentableField,
  unrepresentableFieldError,
  unrepresentableZod3Kind,
  unrepresentableZod4Kind,
} from './unrepresentable-field.js';

/**
 * zod-to-json-schema, loaded the first time a zod 3 schema is converted (or by `prepareTools()`): tools
 * written with zod 4 or JSON Schema never need it, and importing it costs every process that loads the
 * tools at start-up.
 */
function loadZod3Converter(): ZodToJsonSchema {
  return zodToJsonSchemaLibrary.get();
}

/** zod 4's converter's options, the same whichever way it is reached. */
type Zod4JsonSchemaOptions = NonNullable<Parameters<typeof toJSONSchema>[1]>;

/**
 * zod 4's JSON Schema of a schema. A classic zod schema (zod 4.2 and later) converts itself, with the app's
 * own copy of zod, so core never loads zod at start-up (a hundred modules to wait for) and never a second copy of
 * it. zod/mini's schemas and zod 4.0–4.1 go through zod/v4/core's `toJSONSchema`, loaded on use: that may
 * be zod's CommonJS copy beside the app's ES one, which is safe since zod 4 keeps `.describe()`'s
 * registry on `globalThis`, where both copies find it.
 */
function zod4JsonSchema(schema: $ZodType, options: Zod4JsonSchemaOptions): JsonSchema {
  const own = (schema as { toJSONSchema?: (options: Zod4JsonSchemaOptions) => unknown }).toJSONSchema;
  if (typeof own === 'function') return own.call(schema, options) as JsonSchema;
  return zod4CoreLibrary.get().toJSONSchema(schema, options) as JsonSchema;
}

/**
 * The JSON Schema a Standard Schema gives of itself (StandardJSONSchemaV1: the loop-control tools' own
 * schemas, ArkType, Valibot with its converter), or undefined when it gives none.
 */
function standardJsonSchema(value: unknown): JsonSchema | undefined {
  const props = (value as { '~standard'?: Partial<StandardJSONSchemaV1.Props> })['~standard'];
  const input = props?.jsonSchema?.input;
  if (typeof input !== 'function') return undefined;
  return input.call(props?.jsonSchema, { target: 'draft-2020-12' }) as JsonSchema;
}

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
 * split); another Standard Schema gives its own (StandardJSONSchemaV1). A plain JSON Schema is copied as
 * JSON. Throws ToolDefinitionError (`invalid_tool_definition`)
 * when the result does not describe an object, since tool arguments are always a JSON object; when a
 * field has a type JSON cannot carry (`z.date()`, `z.bigint()`, ...), naming it and what to use
 * instead; and when reading the parameters throws (a throwing getter, a Proxy).
 */
export function toJsonSchema(parameters: ToolParameters, toolName: string): JsonSchema {
  const unrepresentable: Located[] = [];
  const schema = readToolParameters(toolName, () => convert(parameters, unrepresentable));
  if (schema === undefined) {
    throw new ToolDefinitionError(
      `Tool "${toolName}": its parameters are a Standard Schema that is not zod and gives no JSON Schema of itself (StandardJSONSchemaV1); pass a zod schema or a JSON Schema object.`,
    );
  }
  const { $schema: _dialect, ...withoutDialect } = schema;
  if (withoutDialect.type !== 'object') {
    throw new ToolDefinitionError(
      `Tool "${toolName}": parameters must describe an object (z.object({...}) or { type: "object", ... }), got type ${JSON.stringify(withoutDialect.type)}.`,
    );
  }
  // The outermost such field is the one to name: whatever sits inside it goes when it is replaced.
  const [first] = unrepresentable.sort((a, b) => a.location.length - b.location.length);
  if (first) throw unrepresentableFieldError(toolName, { ...first.kind, path: fieldPath(first.location) });
  return { properties: {}, ...withoutDialect };
}

/** A schema node JSON cannot carry, and its location in the JSON Schema. */
interface Located {
  kind: Pick<UnrepresentableField, 'type' | 'instead'>;
  location: readonly (string | number)[];
}

/** The parameters as a JSON Schema, or undefined for a Standard Schema that is not zod and gives none. */
function convert(parameters: ToolParameters, unrepresentable: Located[]): JsonSchema | undefined {
  if (isZod4Schema(parameters)) {
    return zod4JsonSchema(parameters as unknown as $ZodType, {
      io: 'input',
      // Every node is seen by `override` below, which records what JSON cannot carry with its location;
      // zod's own "throw" names the type but not where it is.
      unrepresentable: 'any',
      override: ({ zodSchema, jsonSchema, path }) => {
        const kind = unrepresentableZod4Kind(zodSchema._zod.def);
        if (kind) unrepresentable.push({ kind, location: path ?? [] });
        const coerced = coercedZod4Schema(zodSchema._zod.def);
        if (coerced) Object.assign(jsonSchema, coerced);
      },
    });
  }
  if (isZod3Schema(parameters)) {
    const { ignoreOverride, zodToJsonSchema } = loadZod3Converter();
    return zodToJsonSchema(parameters as unknown as Parameters<typeof zodToJsonSchema>[0], {
      $refStrategy: 'none',
      override: (definition, refs) => {
        const kind = unrepresentableZod3Kind(definition);
        if (kind) unrepresentable.push({ kind, location: refs.currentPath.slice(1) });
        return ignoreOverride;
      },
    }) as JsonSchema;
  }
  if (isStandardSchema(parameters)) {
    const own = standardJsonSchema(parameters);
    // Copied as JSON, as a plain JSON Schema is below.
    return own === undefined ? undefined : (JSON.parse(JSON.stringify(own)) as JsonSchema);
  }
  if (typeof parameters !== 'object' || parameters === null) return {};
  // The schema is sent to the model as JSON, so it is copied as JSON: a getter or Proxy anywhere in it
  // is read once, here, and what JSON cannot hold (a cycle, a BigInt) fails registration, not every request.
  return JSON.parse(JSON.stringify(parameters)) as JsonSchema;
}

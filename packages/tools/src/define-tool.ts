import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema, Tool, ToolContext } from './tool.js';

/** The shape `defineTool` takes when the parameters are a zod (Standard Schema) schema. */
export interface SchemaToolConfig<Schema extends StandardSchemaV1, Result> {
  name: string;
  description: string;
  parameters: Schema;
  execute(args: StandardSchemaV1.InferOutput<Schema>, context: ToolContext): Promise<Result> | Result;
}

/** The shape `defineTool` takes when the parameters are a plain JSON Schema object. */
export interface JsonSchemaToolConfig<Result> {
  name: string;
  description: string;
  parameters: JsonSchema;
  execute(args: Record<string, unknown>, context: ToolContext): Promise<Result> | Result;
}

// The JSON Schema overload comes first: TypeScript reports the last overload's error, so a mistyped
// `execute` on a zod tool shows the real zod mismatch rather than "not assignable to JsonSchema".
/**
 * Defines a tool, inferring the type of `execute`'s arguments from the zod schema. With a plain JSON
 * Schema the arguments are `Record<string, unknown>`. The schema is converted and validated when the
 * tool is registered.
 */
export function defineTool<Result>(config: JsonSchemaToolConfig<Result>): Tool<Record<string, unknown>, Result>;
export function defineTool<Schema extends StandardSchemaV1, Result>(
  config: SchemaToolConfig<Schema, Result>,
): Tool<StandardSchemaV1.InferOutput<Schema>, Result>;
export function defineTool(config: Tool): Tool {
  return { ...config };
}

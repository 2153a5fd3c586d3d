import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describeThrown, ToolDefinitionError } from './errors/index.js';
import { parametersJsonSchema } from './schema/parameters-json-schema.js';
import { readToolParameters } from './schema/read-tool-parameters.js';
import type { JsonSchema, Tool, ToolAnnotations, ToolContext } from './tool.js';

/** The shape `defineTool` takes when the parameters are a zod (Standard Schema) schema. */
export interface SchemaToolConfig<Schema extends StandardSchemaV1, Result> {
  name: string;
  description: string;
  parameters: Schema;
  /** What the tool does: read-only, destructive, open-world (see ToolAnnotations). */
  annotations?: ToolAnnotations;
  /** True when calls of this tool must not overlap each other (see Tool.sequential). */
  sequential?: boolean;
  execute(args: StandardSchemaV1.InferOutput<Schema>, context: ToolContext): Promise<Result> | Result;
}

/** The shape `defineTool` takes when the parameters are a plain JSON Schema object. */
export interface JsonSchemaToolConfig<Result> {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** What the tool does: read-only, destructive, open-world (see ToolAnnotations). */
  annotations?: ToolAnnotations;
  /** True when calls of this tool must not overlap each other (see Tool.sequential). */
  sequential?: boolean;
  execute(args: Record<string, unknown>, context: ToolContext): Promise<Result> | Result;
}

// The JSON Schema overload comes first: TypeScript reports the last overload's error, so a mistyped
// `execute` on a zod tool shows the real zod mismatch rather than "not assignable to JsonSchema".
/**
 * Defines a tool, inferring the type of `execute`'s arguments from the zod schema. With a plain JSON
 * Schema the arguments are `Record<string, unknown>`. The schema is converted and checked here, once per
 * parameters object, so a bad one fails where the tool is written rather than when an app registers it.
 * Throws ToolDefinitionError (`invalid_tool_definition`) naming the tool when a getter of the config throws,
 * when reading the parameters throws (a Proxy, a getter), when they do not describe an object, or when a
 * field has a type JSON cannot carry (`z.date()`, `z.bigint()`, ...).
 */
export function defineTool<Result>(config: JsonSchemaToolConfig<Result>): Tool<Record<string, unknown>, Result>;
export function defineTool<Schema extends StandardSchemaV1, Result>(
  config: SchemaToolConfig<Schema, Result>,
): Tool<StandardSchemaV1.InferOutput<Schema>, Result>;
export function defineTool(config: Tool): Tool {
  const tool = copyConfig(config);
  const parameters = readToolParameters(tool.name, () => tool.parameters);
  parametersJsonSchema(tool.name, parameters);
  return tool;
}

function copyConfig(config: Tool): Tool {
  try {
    return { ...config };
  } catch (error) {
    // Copying reads every getter of the config; one that throws makes the definition unusable.
    throw new ToolDefinitionError(
      `Tool ${describeName(config)}: reading its definition threw "${describeThrown(error)}".`,
      'invalid_tool_definition',
      error,
    );
  }
}

function describeName(config: Tool): string {
  try {
    return typeof config.name === 'string' ? `"${config.name}"` : 'without a name';
  } catch {
    return 'without a readable name';
  }
}

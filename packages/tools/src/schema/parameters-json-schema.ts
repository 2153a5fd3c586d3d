import type { JsonSchema, ToolParameters } from '../tool.js';
import { toJsonSchema } from './to-json-schema.js';

// `defineTool` converts a tool's parameters so that a bad schema fails where its author wrote it, and the
// registry needs the same JSON Schema again for every agent that registers the tool: the conversion is
// done once per parameters object and shared.
const schemas = new WeakMap<object, JsonSchema>();

/**
 * The parameters' JSON Schema (see toJsonSchema), converted once per parameters object. Throws
 * ToolDefinitionError (`invalid_tool_definition`) naming the tool, as toJsonSchema does.
 */
export function parametersJsonSchema(toolName: string, parameters: ToolParameters): JsonSchema {
  if (typeof parameters !== 'object' || parameters === null) return toJsonSchema(parameters, toolName);
  let schema = schemas.get(parameters);
  if (!schema) {
    schema = toJsonSchema(parameters, toolName);
    schemas.set(parameters, schema);
  }
  return schema;
}

export * from './builtin/index.js';
export type { JsonSchemaToolConfig, SchemaToolConfig } from './define-tool.js';
export { defineTool } from './define-tool.js';
export * from './errors/index.js';
export * from './plugin/index.js';
export type { RunToolCallOptions, ToolCallInput, ToolCallOutcome, ToolFailureCode } from './run-tool-call.js';
export {
  DEFAULT_MAX_RESULT_CHARS,
  DEFAULT_TOOL_TIMEOUT_MS,
  runToolCall,
  stringifyToolResult,
  toolCallFailure,
} from './run-tool-call.js';
export * from './schema/index.js';
export type {
  InferToolArguments,
  JsonSchema,
  Tool,
  ToolContext,
  ToolDefinition,
  ToolParameters,
  ToolProgress,
} from './tool.js';
export type { ArgumentsProblem, ParsedArguments, ParseToolArgumentsOptions } from './tool-arguments.js';
export { MAX_ARGUMENT_CHARS, MAX_ARGUMENT_DEPTH, parseToolArguments } from './tool-arguments.js';
export type { RegisteredTool } from './tool-registry.js';
export { ToolRegistry } from './tool-registry.js';
export * from './xml/index.js';

// The public API of @agentloop/tools: what a tool package and an app use. What only other agentloop
// packages need is under @agentloop/tools/internal.

export * from './builtin/index.js';
export type { JsonSchemaToolConfig, SchemaToolConfig } from './define-tool.js';
export { defineTool } from './define-tool.js';
export * from './errors/index.js';
export type { PrepareToolsOptions } from './libraries/index.js';
export { prepareTools } from './libraries/index.js';
export * from './plugin/index.js';
export type {
  ElicitationFormRequest,
  ElicitationRequest,
  ElicitationResult,
  ElicitationUrlRequest,
  ElicitationValue,
  SamplingMessage,
  SamplingModelPreferences,
  SamplingRequest,
  SamplingResult,
  SamplingStopReason,
} from './requests/index.js';
export type {
  RunToolCallOptions,
  ToolCallInput,
  ToolCallOutcome,
  ToolFailureCode,
  ToolLookup,
} from './run-tool-call.js';
export { DEFAULT_MAX_RESULT_CHARS, DEFAULT_TOOL_TIMEOUT_MS, runToolCall } from './run-tool-call.js';
export type {
  InferToolArguments,
  JsonSchema,
  Tool,
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolParameters,
  ToolProgress,
  ToolServer,
} from './tool.js';
export type { RegisteredTool } from './tool-registry.js';
export { ToolRegistry } from './tool-registry.js';
export type { ToolResult, ToolResultImage, ToolResultInit } from './tool-result.js';
export { isToolResult, toolResult } from './tool-result.js';
export * from './xml/index.js';

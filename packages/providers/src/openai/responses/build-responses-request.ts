import type { ModelRequest, ToolDefinition } from '@agentloop/spec';
import type { FunctionTool, ResponseCreateParamsBase, Tool } from 'openai/resources/responses/responses';
import { memoizeByToolList } from '../../messages/index.js';
import type { ModelInfo } from '../../models/index.js';
import { parallelToolCallsParameter } from '../parallel-tool-calls-parameter.js';
import { toResponsesInput } from './to-responses-input.js';

/** What shapes a Responses API request besides the ModelRequest. */
export interface ResponsesRequestSettings {
  model: string;
  modelInfo: ModelInfo;
}

/**
 * Builds the body of a Responses API call (without `stream`). Nothing is stored on the server
 * (`store: false`); a reasoning model's reasoning comes back encrypted (`include`) with a summary, and is
 * sent back in later turns. `request.stopSequences` is not sent: the API has no `stop` parameter. For a
 * model with the API's own apply_patch tool (`modelInfo.nativeApplyPatch`), a registered `apply_patch` tool
 * that takes a `patch` is offered as `{ type: "apply_patch" }` instead of its function.
 */
export function buildResponsesRequest(
  request: ModelRequest,
  settings: ResponsesRequestSettings,
): ResponseCreateParamsBase {
  const nativeApplyPatch = settings.modelInfo.nativeApplyPatch === true && request.tools.some(takesPatch);
  const body: ResponseCreateParamsBase = {
    model: settings.model,
    input: toResponsesInput(request.messages, { nativeApplyPatch }),
    store: false,
  };
  if (request.systemPrompt !== '') body.instructions = request.systemPrompt;
  if (request.tools.length > 0) {
    const tools = responsesTools(request.tools);
    body.tools = nativeApplyPatch
      ? tools.map((tool): Tool => (tool.name === APPLY_PATCH ? { type: 'apply_patch' } : tool))
      : tools;
    body.tool_choice = request.toolChoice;
    const parallel = parallelToolCallsParameter(request, settings.model);
    if (parallel !== undefined) body.parallel_tool_calls = parallel;
  }
  const model = request.settings ?? {};
  if (model.maxTokens !== undefined) body.max_output_tokens = model.maxTokens;
  if (model.temperature !== undefined) body.temperature = model.temperature;
  if (model.topP !== undefined) body.top_p = model.topP;
  if (settings.modelInfo.reasoning) {
    body.include = ['reasoning.encrypted_content'];
    body.reasoning = {
      summary: 'auto',
      ...(model.reasoningEffort !== undefined ? { effort: model.reasoningEffort } : {}),
    };
  }
  return body;
}

const APPLY_PATCH = 'apply_patch';

/**
 * True for a tool the API's own apply_patch tool can stand in for: named `apply_patch` and taking the
 * `patch` text that the reader makes of an apply_patch_call, as the workspace tool does. An app's own
 * `apply_patch` with other arguments keeps its function definition.
 */
function takesPatch(tool: ToolDefinition): boolean {
  if (tool.name !== APPLY_PATCH) return false;
  const properties = (tool.inputSchema as { properties?: Record<string, { type?: unknown }> }).properties;
  return properties?.patch?.type === 'string';
}

/** The tools as Responses functions, converted once per tool list. */
const responsesTools = memoizeByToolList((tools): FunctionTool[] =>
  tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema as Record<string, unknown>,
    // Strict mode rejects the optional properties ordinary JSON Schemas have.
    strict: false,
  })),
);

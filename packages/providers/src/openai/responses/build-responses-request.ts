import type { ModelRequest } from '@agentloop/spec';
import type { FunctionTool, ResponseCreateParamsBase } from 'openai/resources/responses/responses';
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
 * sent back in later turns. `request.stopSequences` is not sent: the API has no `stop` parameter.
 */
export function buildResponsesRequest(
  request: ModelRequest,
  settings: ResponsesRequestSettings,
): ResponseCreateParamsBase {
  const body: ResponseCreateParamsBase = {
    model: settings.model,
    input: toResponsesInput(request.messages),
    store: false,
  };
  if (request.systemPrompt !== '') body.instructions = request.systemPrompt;
  if (request.tools.length > 0) {
    body.tools = responsesTools(request.tools);
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

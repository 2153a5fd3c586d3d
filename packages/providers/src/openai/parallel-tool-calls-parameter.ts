import type { ModelRequest } from '@agentloop/spec';

// OpenAI's o-series reasoning models (o1, o3, o3-mini, o4-mini) answer "Unsupported parameter:
// 'parallel_tool_calls' is not supported with this model" with a 400, even for `false`. They are not
// told; the loop still runs the calls of a response one by one when the request asks for that.
const REJECTS_PARALLEL_TOOL_CALLS = /^o\d/;

/**
 * The `parallel_tool_calls` value of a Chat Completions or Responses request: `false` when the request asks
 * for one tool call per response, it offers tools (the API rejects the parameter without them) and the
 * model takes it; undefined (left out) otherwise. A router prefix (`openai/o3`) is ignored.
 */
export function parallelToolCallsParameter(request: ModelRequest, model: string): false | undefined {
  if (request.parallelToolCalls !== false || request.tools.length === 0) return undefined;
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  return REJECTS_PARALLEL_TOOL_CALLS.test(name) ? undefined : false;
}

import type { ModelRequest } from '@agentloop/spec';
import type { ChatCompletionCreateParamsBase, ChatCompletionTool } from 'openai/resources/chat/completions';
import { memoizeByToolList } from '../../messages/index.js';
import type { ModelInfo } from '../../models/index.js';
import { parallelToolCallsParameter } from '../parallel-tool-calls-parameter.js';
import { toChatMessages } from './to-chat-messages.js';

/** What shapes a Chat Completions request besides the ModelRequest. */
export interface ChatRequestSettings {
  model: string;
  modelInfo: ModelInfo;
  /**
   * An OpenAI-compatible server: it knows `max_tokens` rather than `max_completion_tokens` and takes any
   * number of stop sequences.
   */
  compatible: boolean;
  /** Assistant messages carry their reasoning as `reasoning_content`. */
  sendReasoning: boolean;
}

/** Builds the body of a Chat Completions call (without `stream`). */
export function buildChatRequest(request: ModelRequest, settings: ChatRequestSettings): ChatCompletionCreateParamsBase {
  const body: ChatCompletionCreateParamsBase = {
    model: settings.model,
    messages: toChatMessages(request.systemPrompt, request.messages, { sendReasoning: settings.sendReasoning }),
  };
  if (request.tools.length > 0) {
    body.tools = chatTools(request.tools);
    body.tool_choice = request.toolChoice;
    const parallel = parallelToolCallsParameter(request, settings.model);
    if (parallel !== undefined) body.parallel_tool_calls = parallel;
  }
  const model = request.settings ?? {};
  if (model.maxTokens !== undefined) {
    if (settings.compatible) body.max_tokens = model.maxTokens;
    else body.max_completion_tokens = model.maxTokens;
  }
  if (model.temperature !== undefined) body.temperature = model.temperature;
  if (model.topP !== undefined) body.top_p = model.topP;
  if (model.reasoningEffort !== undefined && settings.modelInfo.reasoning)
    body.reasoning_effort = model.reasoningEffort;
  if (request.stopSequences?.length && settings.modelInfo.stopSequences)
    body.stop = stopSequences(request.stopSequences, settings.compatible);
  return body;
}

// OpenAI's Chat Completions rejects more than 4 stop strings. Dropping the rest beats failing the call: the
// loop works without stop sequences (as with the models that take none), they only save tokens.
const OPENAI_MAX_STOP_SEQUENCES = 4;

/** The stop strings to send: all of them to a compatible server, the first four to OpenAI. */
function stopSequences(sequences: readonly string[], compatible: boolean): string[] {
  return compatible ? [...sequences] : sequences.slice(0, OPENAI_MAX_STOP_SEQUENCES);
}

/** The tools as Chat Completions functions, converted once per tool list. */
const chatTools = memoizeByToolList((tools): ChatCompletionTool[] =>
  tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema as Record<string, unknown>,
    },
  })),
);

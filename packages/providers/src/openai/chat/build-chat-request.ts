import type { ModelRequest } from '@agentloop/core';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import type { ModelInfo } from '../../models/index.js';
import { toChatMessages } from './to-chat-messages.js';

/** What shapes a Chat Completions request besides the ModelRequest. */
export interface ChatRequestSettings {
  model: string;
  modelInfo: ModelInfo;
  /** An OpenAI-compatible server: it knows `max_tokens` rather than `max_completion_tokens`. */
  compatible: boolean;
}

/** Builds the body of a Chat Completions call (without `stream`). */
export function buildChatRequest(request: ModelRequest, settings: ChatRequestSettings): ChatCompletionCreateParamsBase {
  const body: ChatCompletionCreateParamsBase = {
    model: settings.model,
    messages: toChatMessages(request.systemPrompt, request.messages),
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema as Record<string, unknown>,
      },
    }));
    body.tool_choice = request.toolChoice;
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
  if (request.stopSequences?.length && settings.modelInfo.stopSequences) body.stop = [...request.stopSequences];
  return body;
}

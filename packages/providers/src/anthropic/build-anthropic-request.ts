import type { ModelRequest } from '@agentloop/core';
import type { MessageCreateParamsBase, MessageParam, Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import type { ModelInfo } from '../models/index.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

/** Output tokens requested when the caller sets no `maxTokens` (the API requires a value). */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 16_384;

/**
 * A Messages API body. The SDK's types no longer list the sampling settings, which older models still take;
 * they are sent only when the caller sets them.
 */
export type AnthropicRequestBody = MessageCreateParamsBase & { temperature?: number; top_p?: number };

/** What shapes an Anthropic request besides the ModelRequest. */
export interface AnthropicRequestSettings {
  model: string;
  modelInfo: ModelInfo;
  /** Mark the tools, the system prompt and the conversation so far as cacheable. */
  promptCaching: boolean;
}

const CACHE = { type: 'ephemeral' } as const;

/** Builds the body of a Messages API call (without `stream`). */
export function buildAnthropicRequest(request: ModelRequest, settings: AnthropicRequestSettings): AnthropicRequestBody {
  const { systemText, messages } = toAnthropicMessages(request.messages);
  const model = request.settings ?? {};
  const maxOutput = settings.modelInfo.maxOutputTokens;
  const requested = settings.modelInfo.reasoning ? (model.thinkingBudgetTokens ?? 0) : 0;
  // The API wants 1024 ≤ budget_tokens < max_tokens ≤ the model's output limit, and room for an answer.
  const thinkingBudget = requested > 0 ? Math.min(Math.max(requested, 1024), maxOutput - 1024) : 0;
  const maxTokens = Math.min(
    maxOutput,
    Math.max(model.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS + thinkingBudget, thinkingBudget + 1024),
  );
  const system = [request.systemPrompt, ...systemText].filter((text) => text !== '').join('\n\n');
  const tools: Tool[] = request.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Tool.InputSchema,
  }));
  if (settings.promptCaching) markCacheBreakpoints(tools, messages);
  const body: AnthropicRequestBody = {
    model: settings.model,
    max_tokens: maxTokens,
    messages,
  };
  if (system !== '') {
    body.system = settings.promptCaching ? [{ type: 'text', text: system, cache_control: CACHE }] : system;
  }
  if (tools.length > 0) {
    body.tools = tools;
    body.tool_choice = toolChoice(request.toolChoice, thinkingBudget > 0);
  }
  if (request.stopSequences?.length) body.stop_sequences = [...request.stopSequences];
  if (thinkingBudget > 0) {
    body.thinking = { type: 'enabled', budget_tokens: thinkingBudget };
  } else {
    // Anthropic rejects sampling settings next to thinking.
    if (model.temperature !== undefined) body.temperature = model.temperature;
    // Newer Claude models reject temperature and top_p together; temperature wins.
    else if (model.topP !== undefined) body.top_p = model.topP;
  }
  return body;
}

/** `any` forces a tool call; with thinking on, the API allows only `auto` (and `none`). */
function toolChoice(choice: ModelRequest['toolChoice'], thinking: boolean): ToolChoice {
  if (choice === 'none') return { type: 'none' };
  return choice === 'required' && !thinking ? { type: 'any' } : { type: 'auto' };
}

/**
 * An agent resends the same prefix every step, so caching it pays: one breakpoint after the tools (the
 * system prompt gets its own in the request) and one on the last block of the conversation.
 */
function markCacheBreakpoints(tools: Tool[], messages: MessageParam[]): void {
  const lastTool = tools.at(-1);
  if (lastTool) lastTool.cache_control = CACHE;
  const content = messages.at(-1)?.content;
  const lastBlock = Array.isArray(content) ? content.at(-1) : undefined;
  // Thinking blocks cannot carry cache_control. The block is shared with the conversion cache: copy it.
  if (Array.isArray(content) && lastBlock && lastBlock.type !== 'thinking' && lastBlock.type !== 'redacted_thinking') {
    content[content.length - 1] = { ...lastBlock, cache_control: CACHE };
  }
}

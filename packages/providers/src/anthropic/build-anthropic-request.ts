import type { ModelRequest, ModelSettings, ReasoningEffort } from '@agentloop/spec';
import type { MessageCreateParamsBase, MessageParam, Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import { memoizeByToolList } from '../messages/index.js';
import type { ModelInfo } from '../models/index.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

/**
 * Output tokens requested when the caller sets no `maxTokens` (the API requires a value). Thinking tokens
 * count toward max_tokens, so a request that may think gets its thinking room on top.
 */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 16_384;

type ThinkingEffort = Exclude<ReasoningEffort, 'none'>;
type AnthropicEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/**
 * Tokens of thinking per reasoning effort: the `budget_tokens` a budget-only model gets for a
 * `reasoningEffort`, and the room an adaptive request leaves for thinking in the default max_tokens
 * (`high`, the API's default effort, when none is set). Budgets are clamped to the model's output limit.
 */
export const THINKING_BUDGET_BY_EFFORT: Readonly<Record<ThinkingEffort, number>> = {
  minimal: 1_024,
  low: 2_048,
  medium: 8_192,
  high: 16_384,
  xhigh: 32_768,
  max: 65_536,
};

/** Anthropic has no `minimal` effort; its lowest is `low`. */
const ANTHROPIC_EFFORT: Readonly<Record<ThinkingEffort, AnthropicEffort>> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'xhigh',
  max: 'max',
};

/** How one request thinks, decided from the settings and the model's thinking form. */
type ThinkingPlan =
  | { mode: 'off' }
  | { mode: 'budget'; budgetTokens: number }
  | { mode: 'adaptive'; effort: AnthropicEffort; roomTokens: number }
  /** An adaptive-only model asked nothing: no `thinking` field, but the newest think by default. */
  | { mode: 'model-default'; roomTokens: number };

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
  /**
   * What the thinking blocks of a Claude 4.6-or-later model hold: its summarized thinking, or nothing but
   * the signature (`omitted`, the default from Opus 4.7 on, which leaves an agent's user nothing to read).
   * Older models always summarize and are not sent the field.
   */
  thinkingDisplay?: 'summarized' | 'omitted';
}

const CACHE = { type: 'ephemeral' } as const;

/** Builds the body of a Messages API call (without `stream`). */
export function buildAnthropicRequest(request: ModelRequest, settings: AnthropicRequestSettings): AnthropicRequestBody {
  const { systemText, messages } = toAnthropicMessages(request.messages);
  const model = request.settings ?? {};
  const thinking = planThinking(model, settings.modelInfo);
  const system = [request.systemPrompt, ...systemText].filter((text) => text !== '').join('\n\n');
  // Copied: the cache breakpoint replaces the last tool.
  const tools: Tool[] = [...anthropicTools(request.tools)];
  if (settings.promptCaching) markCacheBreakpoints(tools, messages);
  const body: AnthropicRequestBody = {
    model: settings.model,
    max_tokens: maxTokensFor(thinking, model.maxTokens, settings.modelInfo.maxOutputTokens),
    messages,
  };
  if (system !== '') {
    body.system = settings.promptCaching ? [{ type: 'text', text: system, cache_control: CACHE }] : system;
  }
  if (tools.length > 0) {
    body.tools = tools;
    body.tool_choice = toolChoice(request.toolChoice, thinking.mode !== 'off', request.parallelToolCalls === false);
  }
  if (request.stopSequences?.length) body.stop_sequences = [...request.stopSequences];
  // Only the models that know adaptive thinking take `display`.
  const display =
    settings.modelInfo.thinking === 'adaptive' || settings.modelInfo.thinking === 'adaptive-only'
      ? { display: settings.thinkingDisplay ?? 'summarized' }
      : {};
  if (thinking.mode === 'budget') {
    body.thinking = { type: 'enabled', budget_tokens: thinking.budgetTokens, ...display };
  } else if (thinking.mode === 'adaptive') {
    body.thinking = { type: 'adaptive', ...display };
    body.output_config = { effort: thinking.effort };
  } else if (thinking.mode === 'off') {
    // Anthropic rejects sampling settings next to thinking; adaptive-only models (never `off` here) reject
    // them even without it.
    if (model.temperature !== undefined) body.temperature = model.temperature;
    // Newer Claude models reject temperature and top_p together; temperature wins.
    else if (model.topP !== undefined) body.top_p = model.topP;
  }
  return body;
}

/**
 * Chooses the thinking form the model takes for what the settings ask:
 * - budget-only model: `thinkingBudgetTokens`, else the budget of `reasoningEffort` (THINKING_BUDGET_BY_EFFORT);
 * - adaptive model: `reasoningEffort` as adaptive thinking, else `thinkingBudgetTokens` in the budget form
 *   (deprecated there, but what the caller asked for);
 * - adaptive-only model: adaptive thinking, with `reasoningEffort`, else the effort `thinkingBudgetTokens`
 *   reaches in THINKING_BUDGET_BY_EFFORT; asked nothing, no `thinking` field at all (never `disabled`, which
 *   some of these models reject).
 * Each model family thus takes the setting of its own form first, so one configuration serves both.
 */
function planThinking(model: ModelSettings, info: ModelInfo): ThinkingPlan {
  if (!info.reasoning) return { mode: 'off' };
  const form = info.thinking ?? 'budget';
  // 0 means "the provider's default", like an absent budget.
  const budget =
    model.thinkingBudgetTokens !== undefined && model.thinkingBudgetTokens > 0 ? model.thinkingBudgetTokens : undefined;
  // `none` turns thinking off where the model allows it; an adaptive-only model thinks as little as it can.
  if (model.reasoningEffort === 'none' && form !== 'adaptive-only') return { mode: 'off' };
  const effort = model.reasoningEffort === 'none' ? 'low' : model.reasoningEffort;
  if (form === 'budget' || (form === 'adaptive' && effort === undefined)) {
    const requested = budget ?? (effort === undefined ? undefined : THINKING_BUDGET_BY_EFFORT[effort]);
    if (requested === undefined) return { mode: 'off' };
    // The API wants 1024 ≤ budget_tokens < max_tokens ≤ the model's output limit, and room for an answer.
    return { mode: 'budget', budgetTokens: Math.min(Math.max(requested, 1024), info.maxOutputTokens - 1024) };
  }
  const roomTokens = budget ?? THINKING_BUDGET_BY_EFFORT[effort ?? 'high'];
  if (effort !== undefined) return { mode: 'adaptive', effort: ANTHROPIC_EFFORT[effort], roomTokens };
  if (budget !== undefined) return { mode: 'adaptive', effort: effortForBudget(budget), roomTokens };
  return { mode: 'model-default', roomTokens };
}

/** The highest effort whose budget in THINKING_BUDGET_BY_EFFORT the given budget reaches (at least `low`). */
function effortForBudget(budget: number): AnthropicEffort {
  if (budget >= THINKING_BUDGET_BY_EFFORT.high) return 'high';
  return budget >= THINKING_BUDGET_BY_EFFORT.medium ? 'medium' : 'low';
}

/**
 * max_tokens within the model's output limit. Without a caller's `maxTokens`, the default plus the thinking
 * budget or room. A budget also needs max_tokens above it, with room for an answer, so it can raise a
 * caller's value; adaptive thinking has no such floor and shares the caller's value with the answer.
 */
function maxTokensFor(thinking: ThinkingPlan, requested: number | undefined, maxOutput: number): number {
  switch (thinking.mode) {
    case 'off':
      return Math.min(maxOutput, requested ?? DEFAULT_ANTHROPIC_MAX_TOKENS);
    case 'budget':
      return Math.min(
        maxOutput,
        Math.max(requested ?? DEFAULT_ANTHROPIC_MAX_TOKENS + thinking.budgetTokens, thinking.budgetTokens + 1024),
      );
    default:
      return Math.min(maxOutput, requested ?? DEFAULT_ANTHROPIC_MAX_TOKENS + thinking.roomTokens);
  }
}

/**
 * `any` forces a tool call; with thinking on, the API allows only `auto` (and `none`). `thinking` is true
 * also for an adaptive-only model asked nothing: the newest think by default. `oneCall` asks for at most
 * one tool use per response (`disable_parallel_tool_use`, which `auto` and `any` take, `none` does not).
 */
function toolChoice(choice: ModelRequest['toolChoice'], thinking: boolean, oneCall: boolean): ToolChoice {
  if (choice === 'none') return { type: 'none' };
  const type = choice === 'required' && !thinking ? 'any' : 'auto';
  return oneCall ? { type, disable_parallel_tool_use: true } : { type };
}

/**
 * An agent resends the same prefix every step, so caching it pays: one breakpoint after the tools (the
 * system prompt gets its own in the request) and one on the last block of the conversation.
 */
function markCacheBreakpoints(tools: Tool[], messages: MessageParam[]): void {
  const lastTool = tools.at(-1);
  // The tool is shared with the conversion cache: copy it.
  if (lastTool) tools[tools.length - 1] = { ...lastTool, cache_control: CACHE };
  const content = messages.at(-1)?.content;
  const lastBlock = Array.isArray(content) ? content.at(-1) : undefined;
  // Thinking blocks cannot carry cache_control. The block is shared with the conversion cache: copy it.
  if (Array.isArray(content) && lastBlock && lastBlock.type !== 'thinking' && lastBlock.type !== 'redacted_thinking') {
    content[content.length - 1] = { ...lastBlock, cache_control: CACHE };
  }
}

/** The tools as Anthropic tools, converted once per tool list; never mutate them. */
const anthropicTools = memoizeByToolList((tools): readonly Tool[] =>
  tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Tool.InputSchema,
  })),
);

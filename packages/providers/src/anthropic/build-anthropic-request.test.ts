import type { ModelRequest, ModelSettings, ReasoningEffort } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { findModelInfo, type ModelInfo } from '../models/index.js';
import { modelRequest, WEATHER_TOOL } from '../test-support/index.js';
import {
  buildAnthropicRequest,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  THINKING_BUDGET_BY_EFFORT,
} from './build-anthropic-request.js';

const build = (
  model: string,
  settings: ModelSettings,
  overrides: { request?: Partial<ModelRequest>; modelInfo?: Partial<ModelInfo> } = {},
) =>
  buildAnthropicRequest(modelRequest({ settings, ...overrides.request }), {
    model,
    modelInfo: findModelInfo(model, overrides.modelInfo),
    promptCaching: false,
  });

const withTools = (toolChoice: ModelRequest['toolChoice']) => ({ request: { tools: [WEATHER_TOOL], toolChoice } });

describe('buildAnthropicRequest thinking budget', () => {
  it('raises a budget below the API minimum of 1024 tokens', () => {
    const body = build('claude-sonnet-4-6', { thinkingBudgetTokens: 500 });
    expect(body.thinking).toMatchObject({ budget_tokens: 1024 });
    expect(body.max_tokens).toBeGreaterThan(1024);
  });

  it('keeps max_tokens within the model output limit and above the budget', () => {
    const info = findModelInfo('claude-opus-4-1');
    const body = build('claude-opus-4-1', { thinkingBudgetTokens: info.maxOutputTokens });
    const budget = (body.thinking as { budget_tokens: number }).budget_tokens;
    expect(body.max_tokens).toBeLessThanOrEqual(info.maxOutputTokens);
    expect(budget).toBeLessThan(body.max_tokens);
  });

  it('leaves room for an answer when the caller asks for fewer tokens than the budget', () => {
    const body = build('claude-sonnet-4-6', { thinkingBudgetTokens: 4000, maxTokens: 100 });
    expect(body.max_tokens).toBe(4000 + 1024);
  });
});

describe('buildAnthropicRequest on a model with adaptive thinking', () => {
  it('sends reasoningEffort as adaptive thinking with output_config.effort', () => {
    const body = build('claude-sonnet-4-6', { reasoningEffort: 'medium' });
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort: 'medium' });
    expect(body.max_tokens).toBe(DEFAULT_ANTHROPIC_MAX_TOKENS + THINKING_BUDGET_BY_EFFORT.medium);
  });

  it.each([
    ['minimal', 'low'],
    ['low', 'low'],
    ['medium', 'medium'],
    ['high', 'high'],
    ['xhigh', 'xhigh'],
    ['max', 'max'],
  ] as const)('maps reasoningEffort %s to effort %s', (reasoningEffort, effort) => {
    expect(build('claude-opus-4-6', { reasoningEffort }).output_config).toEqual({ effort });
  });

  it('turns thinking off for reasoningEffort none, where the model allows it', () => {
    const body = build('claude-opus-4-6', { reasoningEffort: 'none', temperature: 0.2 }, withTools('required'));
    expect(body).not.toHaveProperty('thinking');
    expect(body).not.toHaveProperty('output_config');
    expect(body.tool_choice).toEqual({ type: 'any' });
    expect(body.temperature).toBe(0.2);
    expect(build('claude-sonnet-4-5', { reasoningEffort: 'none' })).not.toHaveProperty('thinking');
  });

  it('thinks as little as it can for reasoningEffort none on an adaptive-only model, which cannot turn it off', () => {
    const body = build('claude-opus-4-7', { reasoningEffort: 'none' });
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort: 'low' });
  });

  it('gives the higher efforts their budgets on a budget-only model, within its output limit', () => {
    const info = findModelInfo('claude-sonnet-4-5');
    expect(build('claude-sonnet-4-5', { reasoningEffort: 'xhigh' }).thinking).toEqual({
      type: 'enabled',
      budget_tokens: THINKING_BUDGET_BY_EFFORT.xhigh,
    });
    const max = build('claude-sonnet-4-5', { reasoningEffort: 'max' });
    expect(max.thinking).toEqual({ type: 'enabled', budget_tokens: info.maxOutputTokens - 1024 });
    expect(max.max_tokens).toBe(info.maxOutputTokens);
  });

  it('keeps a thinking budget in the budget form, which these models still take', () => {
    const body = build('claude-opus-4-6', { thinkingBudgetTokens: 4000 });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4000, display: 'summarized' });
    expect(body).not.toHaveProperty('output_config');
    expect(body.max_tokens).toBe(DEFAULT_ANTHROPIC_MAX_TOKENS + 4000);
  });

  it('prefers reasoningEffort to a thinking budget, which then sizes the room for thinking', () => {
    const body = build('claude-sonnet-4-6', { reasoningEffort: 'low', thinkingBudgetTokens: 6000 });
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort: 'low' });
    expect(body.max_tokens).toBe(DEFAULT_ANTHROPIC_MAX_TOKENS + 6000);
  });

  it('sends no thinking when none is asked for', () => {
    const body = build('claude-sonnet-4-6', { temperature: 0.2 }, withTools('required'));
    expect(body).not.toHaveProperty('thinking');
    expect(body).not.toHaveProperty('output_config');
    expect(body.max_tokens).toBe(DEFAULT_ANTHROPIC_MAX_TOKENS);
    expect(body.tool_choice).toEqual({ type: 'any' });
    expect(body.temperature).toBe(0.2);
  });

  it('keeps the caller’s maxTokens: adaptive thinking has no budget it must exceed', () => {
    expect(build('claude-sonnet-4-6', { reasoningEffort: 'high', maxTokens: 2000 }).max_tokens).toBe(2000);
  });

  it('falls back from tool choice any to auto and drops sampling settings next to thinking', () => {
    const body = build('claude-sonnet-4-6', { reasoningEffort: 'high', temperature: 0.2 }, withTools('required'));
    expect(body.tool_choice).toEqual({ type: 'auto' });
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
  });
});

describe('buildAnthropicRequest on a model with adaptive thinking only', () => {
  it('sends reasoningEffort as adaptive thinking', () => {
    const body = build('claude-opus-4-7', { reasoningEffort: 'minimal' });
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort: 'low' });
  });

  it.each([
    [1_024, 'low'],
    [8_191, 'low'],
    [8_192, 'medium'],
    [16_383, 'medium'],
    [16_384, 'high'],
    [100_000, 'high'],
  ] as const)('turns a thinking budget of %i into adaptive thinking with effort %s', (thinkingBudgetTokens, effort) => {
    const body = build('claude-opus-4-7', { thinkingBudgetTokens });
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort });
  });

  it('leaves the thinking budget as room for thinking in max_tokens, within the output limit', () => {
    expect(build('claude-fable-5', { thinkingBudgetTokens: 10_000 }).max_tokens).toBe(
      DEFAULT_ANTHROPIC_MAX_TOKENS + 10_000,
    );
    expect(build('claude-fable-5', { thinkingBudgetTokens: 500_000 }).max_tokens).toBe(128_000);
  });

  it('sends no thinking field when none is asked for, never `disabled`, and leaves room for default thinking', () => {
    const body = build('claude-opus-5', {}, withTools('required'));
    expect(body).not.toHaveProperty('thinking');
    expect(body).not.toHaveProperty('output_config');
    expect(body.max_tokens).toBe(DEFAULT_ANTHROPIC_MAX_TOKENS + THINKING_BUDGET_BY_EFFORT.high);
    // The newest models think by default, and thinking forbids tool choice any.
    expect(body.tool_choice).toEqual({ type: 'auto' });
  });

  it('never sends sampling settings, which these models reject', () => {
    const body = build('claude-haiku-5-5', { temperature: 0.2, topP: 0.9 });
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
  });

  it('treats an unknown Claude model as the newest generation', () => {
    const body = build('claude-sonnet-9', { thinkingBudgetTokens: 2_048 });
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort: 'low' });
  });
});

describe('buildAnthropicRequest thinking display', () => {
  it('asks the models that know adaptive thinking for summarized thinking, which Opus 4.7 otherwise omits', () => {
    expect(build('claude-opus-4-7', { reasoningEffort: 'high' }).thinking).toEqual({
      type: 'adaptive',
      display: 'summarized',
    });
    const omitted = buildAnthropicRequest(modelRequest({ settings: { reasoningEffort: 'high' } }), {
      model: 'claude-opus-4-7',
      modelInfo: findModelInfo('claude-opus-4-7'),
      promptCaching: false,
      thinkingDisplay: 'omitted',
    });
    expect(omitted.thinking).toEqual({ type: 'adaptive', display: 'omitted' });
  });

  it('sends no display to older models, which always summarize', () => {
    expect(build('claude-sonnet-4-5', { thinkingBudgetTokens: 4000 }).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 4000,
    });
  });

  it('sends no thinking at all to an adaptive-only model asked nothing', () => {
    expect(build('claude-opus-4-7', {})).not.toHaveProperty('thinking');
  });
});

describe('buildAnthropicRequest on a model with a thinking budget only', () => {
  it.each(Object.entries(THINKING_BUDGET_BY_EFFORT) as [Exclude<ReasoningEffort, 'none'>, number][])(
    'turns reasoningEffort %s into a budget of %i tokens',
    (reasoningEffort, budget) => {
      // Opus 4.5's output limit (64k) holds every budget but `max`'s, which is clamped below it.
      const limit = findModelInfo('claude-opus-4-5').maxOutputTokens;
      const body = build('claude-opus-4-5', { reasoningEffort });
      const expected = Math.min(budget, limit - 1024);
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: expected });
      expect(body).not.toHaveProperty('output_config');
      expect(body.max_tokens).toBe(Math.min(DEFAULT_ANTHROPIC_MAX_TOKENS + expected, limit));
    },
  );

  it('prefers an explicit thinking budget to reasoningEffort', () => {
    const body = build('claude-haiku-4-5', { reasoningEffort: 'high', thinkingBudgetTokens: 3_000 });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 3_000 });
  });

  it('keeps a budget from reasoningEffort below the output limit', () => {
    const body = build('claude-3-7-sonnet', { reasoningEffort: 'high' }, { modelInfo: { maxOutputTokens: 8_192 } });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 8_192 - 1024 });
    expect(body.max_tokens).toBe(8_192);
  });

  it('treats a budget of 0 as no budget', () => {
    expect(build('claude-opus-4-1', { thinkingBudgetTokens: 0 })).not.toHaveProperty('thinking');
  });
});

describe('buildAnthropicRequest on a model without thinking', () => {
  it('sends neither thinking form, whatever the settings ask', () => {
    const body = build('claude-3-5-haiku', { reasoningEffort: 'high', thinkingBudgetTokens: 4_000, temperature: 0.5 });
    expect(body).not.toHaveProperty('thinking');
    expect(body).not.toHaveProperty('output_config');
    expect(body.temperature).toBe(0.5);
    expect(body.max_tokens).toBe(8_192);
  });
});

describe('buildAnthropicRequest parallel tool use', () => {
  const oneCall = (toolChoice: ModelRequest['toolChoice']) => ({
    request: { tools: [WEATHER_TOOL], toolChoice, parallelToolCalls: false },
  });

  it('asks for at most one tool use per response when the request turns parallel calls off', () => {
    expect(build('claude-sonnet-4-5', {}, oneCall('required')).tool_choice).toEqual({
      type: 'any',
      disable_parallel_tool_use: true,
    });
    expect(build('claude-sonnet-4-5', {}, oneCall('auto')).tool_choice).toEqual({
      type: 'auto',
      disable_parallel_tool_use: true,
    });
  });

  it('keeps it on the auto choice that thinking falls back to', () => {
    expect(build('claude-sonnet-4-6', { reasoningEffort: 'high' }, oneCall('required')).tool_choice).toEqual({
      type: 'auto',
      disable_parallel_tool_use: true,
    });
  });

  it('sends no such field by default, nor with tool choice none, which does not take it', () => {
    expect(build('claude-sonnet-4-5', {}, withTools('required')).tool_choice).toEqual({ type: 'any' });
    expect(build('claude-sonnet-4-5', {}, oneCall('none')).tool_choice).toEqual({ type: 'none' });
  });
});

import { describe, expect, it } from 'vitest';
import { findModelInfo } from '../models/index.js';
import { modelRequest } from '../test-support/index.js';
import { buildAnthropicRequest } from './build-anthropic-request.js';

const build = (model: string, settings: { thinkingBudgetTokens?: number; maxTokens?: number }) =>
  buildAnthropicRequest(modelRequest({ settings }), { model, modelInfo: findModelInfo(model), promptCaching: false });

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

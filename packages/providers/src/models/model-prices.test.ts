import { describe, expect, it } from 'vitest';
import { DEFAULT_ANTHROPIC_MODEL, DEFAULT_OPENAI_MODEL } from '../environment/default-model.js';
import { findModelInfo } from './find-model-info.js';
import { findModelPricing, MODEL_PRICES } from './model-prices.js';
import { providerCapabilities } from './provider-capabilities.js';

describe('findModelPricing', () => {
  it('prices a model, its dated snapshots and its -latest alias alike', () => {
    const sonnet = {
      inputUsdPerMillion: 3,
      outputUsdPerMillion: 15,
      cacheReadUsdPerMillion: 0.3,
      cacheWriteUsdPerMillion: 3.75,
    };
    expect(findModelPricing('claude-sonnet-4-5')).toEqual(sonnet);
    expect(findModelPricing('claude-sonnet-4-5-20250929')).toEqual(sonnet);
    expect(findModelPricing('claude-3-7-sonnet-latest')).toEqual(sonnet);
    expect(findModelPricing('gpt-4o-2024-08-06')).toEqual({
      inputUsdPerMillion: 2.5,
      outputUsdPerMillion: 10,
      cacheReadUsdPerMillion: 1.25,
    });
  });

  it('prices the default models, so that a run on them reports its cost', () => {
    expect(findModelPricing(DEFAULT_ANTHROPIC_MODEL)).toEqual({
      inputUsdPerMillion: 3,
      outputUsdPerMillion: 15,
      cacheReadUsdPerMillion: 0.3,
      cacheWriteUsdPerMillion: 3.75,
    });
    expect(findModelPricing(DEFAULT_OPENAI_MODEL)).toEqual({
      inputUsdPerMillion: 0.25,
      outputUsdPerMillion: 2,
      cacheReadUsdPerMillion: 0.025,
    });
  });

  it('lets a snapshot with a price of its own keep it', () => {
    expect(findModelPricing('gpt-4o-2024-05-13')).toEqual({ inputUsdPerMillion: 5, outputUsdPerMillion: 15 });
  });

  it('tells the members of a family apart rather than pricing them by prefix', () => {
    expect(findModelPricing('gpt-5')?.inputUsdPerMillion).toBe(1.25);
    expect(findModelPricing('gpt-5-mini-2025-08-07')?.inputUsdPerMillion).toBe(0.25);
    expect(findModelPricing('gpt-5-nano')?.inputUsdPerMillion).toBe(0.05);
    expect(findModelPricing('claude-opus-4-5-20251101')?.inputUsdPerMillion).toBe(5);
    expect(findModelPricing('claude-opus-4-1-20250805')?.inputUsdPerMillion).toBe(15);
  });

  it('has no price for a model it does not list, never the price of a relative', () => {
    for (const model of [
      'gpt-5.2',
      'gpt-5.9-mini',
      'claude-sonnet-9',
      'claude-opus-4-6',
      'llama3.1:8b',
      'qwen2.5-coder:7b',
    ])
      expect(findModelPricing(model), model).toBeUndefined();
  });

  it('ignores a router prefix', () => {
    expect(findModelPricing('anthropic/claude-haiku-4-5')).toEqual(findModelPricing('claude-haiku-4-5'));
  });

  it('prices Anthropic cache writes at 1.25 times and reads at 0.1 times the input rate', () => {
    for (const { model, pricing } of MODEL_PRICES.filter((row) => row.model.startsWith('claude-'))) {
      expect(pricing.cacheWriteUsdPerMillion, model).toBeCloseTo(pricing.inputUsdPerMillion * 1.25, 6);
      expect(pricing.cacheReadUsdPerMillion, model).toBeCloseTo(pricing.inputUsdPerMillion * 0.1, 6);
    }
  });

  it('has one row per model, each with output dearer than input', () => {
    const models = MODEL_PRICES.map((row) => row.model);
    expect(new Set(models).size).toBe(models.length);
    for (const { model, pricing } of MODEL_PRICES)
      expect(pricing.outputUsdPerMillion, model).toBeGreaterThan(pricing.inputUsdPerMillion);
  });
});

describe('prices in the model table', () => {
  it('reach the provider capabilities where known, and are absent where not', () => {
    expect(providerCapabilities('claude-haiku-4-5', findModelInfo('claude-haiku-4-5')).pricing).toMatchObject({
      inputUsdPerMillion: 1,
      outputUsdPerMillion: 5,
    });
    expect(providerCapabilities('qwen3:8b', findModelInfo('qwen3:8b'))).not.toHaveProperty('pricing');
  });

  it('can be set for a model the table does not price, through modelInfo', () => {
    const pricing = { inputUsdPerMillion: 0.2, outputUsdPerMillion: 0.6 };
    expect(findModelInfo('my-hosted-llama', { pricing }).pricing).toEqual(pricing);
  });
});

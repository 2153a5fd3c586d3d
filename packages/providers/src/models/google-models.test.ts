import { describe, expect, it } from 'vitest';
import { findModelInfo } from './find-model-info.js';
import { findModelPricing } from './model-prices.js';

describe('GOOGLE_MODELS', () => {
  it('gives Gemini 2.5 and 3 a million tokens of context, thinking and parallel native tools', () => {
    for (const id of ['gemini-2.5-pro', 'gemini-2.5-flash-lite', 'gemini-3-pro-preview', 'gemini-3.1-pro-preview'])
      expect(findModelInfo(id), id).toMatchObject({
        contextWindow: 1_048_576,
        maxOutputTokens: 65_536,
        nativeTools: true,
        parallelToolCalls: true,
        reasoning: true,
      });
  });

  it('knows that Gemini 2.0 does not think and writes at most 8k tokens', () => {
    expect(findModelInfo('gemini-2.0-flash-001')).toMatchObject({ maxOutputTokens: 8_192, reasoning: false });
  });

  it('gives Gemma, served by the same API, no native tools, so auto mode picks the XML protocol', () => {
    expect(findModelInfo('gemma-3-27b-it')).toMatchObject({ nativeTools: false, contextWindow: 131_072 });
  });

  it('finds a model named the way the API lists it, under `models/`', () => {
    expect(findModelInfo('models/gemini-2.5-flash').pricing).toEqual(findModelPricing('gemini-2.5-flash'));
  });

  it('prices the Gemini models at their list prices, and no unpriced relative', () => {
    expect(findModelPricing('gemini-2.5-pro')).toEqual({
      inputUsdPerMillion: 1.25,
      outputUsdPerMillion: 10,
      cacheReadUsdPerMillion: 0.125,
    });
    expect(findModelPricing('gemini-3-flash-preview')).toMatchObject({
      inputUsdPerMillion: 0.5,
      outputUsdPerMillion: 3,
    });
    expect(findModelPricing('gemini-3.1-pro-preview')).toBeUndefined();
  });
});

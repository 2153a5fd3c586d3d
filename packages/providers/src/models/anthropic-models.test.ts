import { describe, expect, it } from 'vitest';
import { ANTHROPIC_MODELS } from './anthropic-models.js';
import { findModelInfo } from './find-model-info.js';

describe('ANTHROPIC_MODELS', () => {
  it.each([
    ['claude-3-7-sonnet-20250219', 'budget', 64_000],
    ['claude-opus-4-1-20250805', 'budget', 32_000],
    ['claude-opus-4-5-20251101', 'budget', 64_000],
    ['claude-sonnet-4-5-20250929', 'budget', 64_000],
    ['claude-haiku-4-5', 'budget', 64_000],
    ['claude-opus-4-6', 'adaptive', 128_000],
    ['claude-sonnet-4-6', 'adaptive', 128_000],
    ['claude-opus-4-7', 'adaptive-only', 128_000],
    ['claude-opus-4-8', 'adaptive-only', 128_000],
    ['claude-mythos-preview', 'adaptive-only', 128_000],
    ['claude-mythos-5-1', 'adaptive-only', 128_000],
    ['claude-fable-5', 'adaptive-only', 128_000],
    ['claude-opus-5', 'adaptive-only', 128_000],
    ['claude-opus-5-5', 'adaptive-only', 128_000],
    ['claude-sonnet-5', 'adaptive-only', 128_000],
    ['claude-haiku-5-5', 'adaptive-only', 128_000],
    ['claude-sonnet-9', 'adaptive-only', 128_000],
  ] as const)('%s takes %s thinking and up to %i output tokens', (model, thinking, maxOutputTokens) => {
    expect(findModelInfo(model)).toMatchObject({ reasoning: true, thinking, maxOutputTokens });
  });

  it.each(['claude-3-5-haiku-20241022', 'claude-3-5-sonnet-latest', 'claude-3-opus-20240229'])(
    '%s does not think',
    (model) => {
      const info = findModelInfo(model);
      expect(info.reasoning).toBe(false);
      expect(info.thinking).toBeUndefined();
    },
  );

  it('gives a thinking form to every model that thinks', () => {
    const thinkingWithout = ANTHROPIC_MODELS.filter((row) => row.info.reasoning && row.info.thinking === undefined);
    expect(thinkingWithout).toEqual([]);
  });

  it('lets a modelInfo override change the thinking form', () => {
    expect(findModelInfo('claude-opus-4-6', { thinking: 'adaptive-only' }).thinking).toBe('adaptive-only');
  });
});

import { describe, expect, it } from 'vitest';
import { findModelInfo, UNKNOWN_MODEL_INFO } from './find-model-info.js';

describe('findModelInfo', () => {
  it('knows current Anthropic models, dated ids included', () => {
    expect(findModelInfo('claude-sonnet-4-5-20250929')).toMatchObject({
      contextWindow: 200_000,
      reasoning: true,
      nativeTools: true,
    });
    expect(findModelInfo('claude-opus-4-1-20250805').maxOutputTokens).toBe(32_000);
    expect(findModelInfo('claude-3-5-haiku-latest').reasoning).toBe(false);
  });

  it('gives an unknown Claude model the current generation values', () => {
    expect(findModelInfo('claude-sonnet-9')).toMatchObject({ contextWindow: 200_000, reasoning: true });
  });

  it('knows current OpenAI models', () => {
    expect(findModelInfo('gpt-4o-2024-08-06')).toMatchObject({
      contextWindow: 128_000,
      reasoning: false,
      parallelToolCalls: true,
    });
    expect(findModelInfo('gpt-4.1-mini').contextWindow).toBe(1_047_576);
    expect(findModelInfo('gpt-5-mini')).toMatchObject({ reasoning: true, stopSequences: false });
    expect(findModelInfo('gpt-5-chat-latest').reasoning).toBe(false);
    expect(findModelInfo('o1-mini').nativeTools).toBe(false);
    expect(findModelInfo('o3-2025-04-16').reasoning).toBe(true);
  });

  it('ignores a router prefix', () => {
    expect(findModelInfo('anthropic/claude-sonnet-4-5')).toEqual(findModelInfo('claude-sonnet-4-5'));
  });

  it('falls back to conservative values for an unknown model', () => {
    expect(findModelInfo('qwen2.5-coder:7b')).toEqual(UNKNOWN_MODEL_INFO);
  });

  it('applies overrides last', () => {
    expect(findModelInfo('llama3.1:8b', { contextWindow: 131_072, parallelToolCalls: true })).toMatchObject({
      contextWindow: 131_072,
      parallelToolCalls: true,
      nativeTools: true,
    });
  });
});

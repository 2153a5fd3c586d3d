import { describe, expect, it } from 'vitest';
import { findModelInfo, findModelOverride, resolveModelInfo, UNKNOWN_MODEL_INFO } from './find-model-info.js';

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

  it("says each model's family and the edit tool it is trained on: apply_patch for GPT-5 and codex", () => {
    const facts = (id: string) => [findModelInfo(id).family, findModelInfo(id).editTool];
    expect(facts('gpt-5')).toEqual(['gpt-5', 'apply_patch']);
    expect(facts('gpt-5.1-codex-max')).toEqual(['gpt-5', 'apply_patch']);
    expect(facts('codex-mini-latest')).toEqual(['codex', 'apply_patch']);
    expect(facts('gpt-5-chat-latest')).toEqual(['gpt-5-chat', 'edit_file']);
    expect(facts('gpt-4.1-mini')).toEqual(['gpt-4.1', 'edit_file']);
    expect(facts('o3')).toEqual(['o-series', 'edit_file']);
    expect(facts('claude-opus-4-7')).toEqual(['claude', 'edit_file']);
  });

  it('gives an unknown model safe defaults and no family: edit_file, one call per response, no price', () => {
    expect(findModelInfo('my-model')).toEqual({
      contextWindow: 32_768,
      maxOutputTokens: 4_096,
      nativeTools: true,
      parallelToolCalls: false,
      reasoning: false,
      stopSequences: true,
      editTool: 'edit_file',
    });
  });
});

describe('findModelOverride', () => {
  const models = {
    qwen3: { contextWindow: 40_960 },
    'qwen3-coder': { contextWindow: 262_144 },
    'qwen3-coder:30b': { contextWindow: 131_072 },
    'Local/My-Model': { editTool: 'apply_patch' as const },
  };

  it('takes the exact id, else the longest key the id starts with', () => {
    expect(findModelOverride('qwen3-coder:30b', models)).toEqual({ contextWindow: 131_072 });
    expect(findModelOverride('qwen3-coder:480b', models)).toEqual({ contextWindow: 262_144 });
    expect(findModelOverride('qwen3:8b', models)).toEqual({ contextWindow: 40_960 });
    expect(findModelOverride('llama3.1:8b', models)).toBeUndefined();
    expect(findModelOverride('qwen3', undefined)).toBeUndefined();
  });

  it('ignores case and a router prefix on either side', () => {
    expect(findModelOverride('openrouter/my-model', models)).toEqual({ editTool: 'apply_patch' });
  });

  it("applies under resolveModelInfo's modelInfo, over the table's entry", () => {
    const info = resolveModelInfo('gpt-4o', {
      models: { 'gpt-4o': { contextWindow: 64_000, editTool: 'apply_patch' } },
      modelInfo: { contextWindow: 32_000 },
    });
    expect(info).toMatchObject({ family: 'gpt-4o', contextWindow: 32_000, editTool: 'apply_patch', nativeTools: true });
  });
});

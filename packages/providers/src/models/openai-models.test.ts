import { describe, expect, it } from 'vitest';
import { findModelInfo } from './find-model-info.js';
import { OPENAI_MODELS } from './openai-models.js';

describe('OPENAI_MODELS', () => {
  it('gives the GPT-4 Turbo previews 128k of context and 4k of output, not the first GPT-4 values', () => {
    for (const id of ['gpt-4-1106-preview', 'gpt-4-0125-preview', 'gpt-4-turbo-preview', 'gpt-4-turbo-2024-04-09'])
      expect(findModelInfo(id), id).toMatchObject({ contextWindow: 128_000, maxOutputTokens: 4_096 });
    for (const id of ['gpt-4', 'gpt-4-0613']) expect(findModelInfo(id).contextWindow, id).toBe(8_192);
    expect(findModelInfo('gpt-4-32k-0613').contextWindow).toBe(32_768);
  });

  it('knows that chatgpt-4o-latest has no function calling', () => {
    expect(findModelInfo('chatgpt-4o-latest')).toMatchObject({
      contextWindow: 128_000,
      nativeTools: false,
      parallelToolCalls: false,
    });
  });

  it('gives the ChatGPT snapshots of GPT-5 a chat model context, whatever their version', () => {
    for (const id of ['gpt-5-chat-latest', 'gpt-5.1-chat-latest', 'gpt-5.2-chat-latest'])
      expect(findModelInfo(id), id).toMatchObject({ contextWindow: 128_000, maxOutputTokens: 16_384 });
    expect(findModelInfo('gpt-5-chat-latest').reasoning).toBe(false);
  });

  it('gives the GPT-5 family 400k of context, and gpt-5-pro its longer output', () => {
    for (const id of ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-5-codex', 'gpt-5.1', 'gpt-5.1-codex-max', 'gpt-5.2'])
      expect(findModelInfo(id), id).toMatchObject({
        contextWindow: 400_000,
        maxOutputTokens: 128_000,
        reasoning: true,
        stopSequences: false,
        nativeTools: true,
      });
    expect(findModelInfo('gpt-5-pro-2025-10-06')).toMatchObject({ contextWindow: 400_000, maxOutputTokens: 272_000 });
  });

  it('says the Responses API has its own apply_patch tool from GPT-5.1 on, not for GPT-5, codex-mini or ChatGPT', () => {
    for (const id of ['gpt-5.1', 'gpt-5.1-codex', 'gpt-5.1-codex-max', 'gpt-5.2', 'gpt-5.2-pro'])
      expect(findModelInfo(id), id).toMatchObject({ nativeApplyPatch: true, editTool: 'apply_patch' });
    for (const id of ['gpt-5', 'gpt-5-codex', 'gpt-5-pro', 'codex-mini-latest', 'gpt-5.1-chat-latest', 'gpt-4.1'])
      expect(findModelInfo(id).nativeApplyPatch, id).toBeUndefined();
  });

  it('gives the first gpt-4o snapshot its 4k output limit', () => {
    expect(findModelInfo('gpt-4o-2024-05-13').maxOutputTokens).toBe(4_096);
    expect(findModelInfo('gpt-4o-2024-11-20').maxOutputTokens).toBe(16_384);
    expect(findModelInfo('gpt-4o-mini').maxOutputTokens).toBe(16_384);
  });

  it('knows the o-series: tools except on the first previews, no stop sequences', () => {
    for (const id of ['o1', 'o1-2024-12-17', 'o3', 'o3-mini', 'o4-mini'])
      expect(findModelInfo(id), id).toMatchObject({
        contextWindow: 200_000,
        maxOutputTokens: 100_000,
        nativeTools: true,
        stopSequences: false,
      });
    for (const id of ['o1-mini', 'o1-preview'])
      expect(findModelInfo(id), id).toMatchObject({ nativeTools: false, parallelToolCalls: false });
  });

  it('gives gpt-oss reasoning with stop sequences (it runs on compatible servers)', () => {
    expect(findModelInfo('gpt-oss-120b')).toMatchObject({
      contextWindow: 131_072,
      reasoning: true,
      stopSequences: true,
    });
  });

  it('has one row per prefix, each with an output limit inside its context', () => {
    const prefixes = OPENAI_MODELS.map((row) => row.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const { prefix, info } of OPENAI_MODELS) {
      expect(info.maxOutputTokens, prefix).toBeLessThanOrEqual(info.contextWindow);
      // A model without function calling cannot make several calls at once.
      if (!info.nativeTools) expect(info.parallelToolCalls, prefix).toBe(false);
    }
  });
});

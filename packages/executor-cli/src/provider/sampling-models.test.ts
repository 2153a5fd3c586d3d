import type { LLMProvider, SamplingRequest } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { samplingModels } from './sampling-models.js';

const request = (hints?: string[]): SamplingRequest => ({
  messages: [{ role: 'user', text: 'hi' }],
  maxTokens: 10,
  ...(hints ? { modelPreferences: { hints, costPriority: 1 } } : {}),
});

function picker() {
  const built: string[] = [];
  const pick = samplingModels(
    ['openai:gpt-5', 'anthropic:claude-sonnet-4-6', 'anthropic:claude-haiku-4-5'],
    async (reference) => {
      built.push(reference);
      return { provider: { id: reference } as unknown as LLMProvider, label: reference };
    },
  );
  return { pick, built };
}

describe('samplingModels', () => {
  it('runs on the first configured model a hint names, built once', async () => {
    const { pick, built } = picker();
    expect((await pick(request(['gemini', 'Haiku'])))?.id).toBe('anthropic:claude-haiku-4-5');
    expect((await pick(request(['haiku'])))?.id).toBe('anthropic:claude-haiku-4-5');
    expect(built).toEqual(['anthropic:claude-haiku-4-5']);
  });

  it('keeps the session’s model when a hint names it, when none matches, and without hints', async () => {
    const { pick, built } = picker();
    expect(await pick(request(['gpt-5']))).toBeUndefined();
    expect(await pick(request(['llama']))).toBeUndefined();
    expect(await pick(request())).toBeUndefined();
    expect(built).toEqual([]);
  });
});

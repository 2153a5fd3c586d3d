import type { ModelInfo, ModelTableEntry } from './model-info.js';

const claude4 = (maxOutputTokens: number): ModelInfo => ({
  contextWindow: 200_000,
  maxOutputTokens,
  nativeTools: true,
  parallelToolCalls: true,
  reasoning: true,
  stopSequences: true,
});

const claude3 = (maxOutputTokens: number): ModelInfo => ({ ...claude4(maxOutputTokens), reasoning: false });

/** Anthropic's models. An unknown `claude-` id gets the current generation's values. */
export const ANTHROPIC_MODELS: readonly ModelTableEntry[] = [
  { prefix: 'claude-opus-4-1', info: claude4(32_000) },
  { prefix: 'claude-opus-4-0', info: claude4(32_000) },
  { prefix: 'claude-opus-4-2025', info: claude4(32_000) },
  { prefix: 'claude-opus-4', info: claude4(64_000) },
  { prefix: 'claude-sonnet-4', info: claude4(64_000) },
  { prefix: 'claude-haiku-4', info: claude4(64_000) },
  { prefix: 'claude-3-7-sonnet', info: claude4(64_000) },
  { prefix: 'claude-3-5-haiku', info: claude3(8_192) },
  { prefix: 'claude-3-5-sonnet', info: claude3(8_192) },
  { prefix: 'claude-3-', info: claude3(4_096) },
  { prefix: 'claude-', info: claude4(64_000) },
];

import type { ModelInfo, ModelTableEntry } from './model-info.js';

/**
 * A Claude model that thinks. The context window stays at 200k although Anthropic lists 1M for Claude 4.6
 * and later (on 4.6 at first behind a beta header): a window set too small only compacts early, one set too
 * large ends in a context-length error. `modelInfo: { contextWindow }` raises it.
 */
const claude = (maxOutputTokens: number, thinking: NonNullable<ModelInfo['thinking']>): ModelInfo => ({
  family: 'claude',
  editTool: 'edit_file',
  contextWindow: 200_000,
  maxOutputTokens,
  nativeTools: true,
  parallelToolCalls: true,
  reasoning: true,
  stopSequences: true,
  thinking,
});

const claude3 = (maxOutputTokens: number): ModelInfo => ({
  family: 'claude',
  editTool: 'edit_file',
  contextWindow: 200_000,
  maxOutputTokens,
  nativeTools: true,
  parallelToolCalls: true,
  reasoning: false,
  stopSequences: true,
});

/**
 * Anthropic's models. An unknown `claude-` id gets the newest generation's values (adaptive thinking only,
 * 128k output). Output limits are Anthropic's model pages as of 2026; Mythos Preview's is assumed equal to
 * its successors'.
 */
export const ANTHROPIC_MODELS: readonly ModelTableEntry[] = [
  { prefix: 'claude-haiku-5', info: claude(128_000, 'adaptive-only') },
  { prefix: 'claude-sonnet-5', info: claude(128_000, 'adaptive-only') },
  { prefix: 'claude-opus-5', info: claude(128_000, 'adaptive-only') },
  { prefix: 'claude-fable', info: claude(128_000, 'adaptive-only') },
  { prefix: 'claude-mythos', info: claude(128_000, 'adaptive-only') },
  { prefix: 'claude-opus-4-8', info: claude(128_000, 'adaptive-only') },
  { prefix: 'claude-opus-4-7', info: claude(128_000, 'adaptive-only') },
  { prefix: 'claude-opus-4-6', info: claude(128_000, 'adaptive') },
  { prefix: 'claude-sonnet-4-6', info: claude(128_000, 'adaptive') },
  { prefix: 'claude-opus-4-1', info: claude(32_000, 'budget') },
  { prefix: 'claude-opus-4-0', info: claude(32_000, 'budget') },
  { prefix: 'claude-opus-4-2025', info: claude(32_000, 'budget') },
  { prefix: 'claude-opus-4', info: claude(64_000, 'budget') },
  { prefix: 'claude-sonnet-4', info: claude(64_000, 'budget') },
  { prefix: 'claude-haiku-4', info: claude(64_000, 'budget') },
  { prefix: 'claude-3-7-sonnet', info: claude(64_000, 'budget') },
  { prefix: 'claude-3-5-haiku', info: claude3(8_192) },
  { prefix: 'claude-3-5-sonnet', info: claude3(8_192) },
  { prefix: 'claude-3-', info: claude3(4_096) },
  { prefix: 'claude-', info: claude(128_000, 'adaptive-only') },
];

import type { ModelInfo, ModelTableEntry } from './model-info.js';

const chat = (family: string, contextWindow: number, maxOutputTokens: number): ModelInfo => ({
  family,
  editTool: 'edit_file',
  contextWindow,
  maxOutputTokens,
  nativeTools: true,
  parallelToolCalls: true,
  reasoning: false,
  stopSequences: true,
});

// OpenAI's reasoning models reject `stop`.
const reasoning = (family: string, contextWindow: number, maxOutputTokens: number): ModelInfo => ({
  ...chat(family, contextWindow, maxOutputTokens),
  reasoning: true,
  stopSequences: false,
});

// GPT-5 and the codex models are trained to change files with apply_patch's patches.
const patching = (info: ModelInfo): ModelInfo => ({ ...info, editTool: 'apply_patch' });

// From GPT-5.1 on (codex variants included), the Responses API also has the model's own apply_patch tool.
const nativePatching = (info: ModelInfo): ModelInfo => ({ ...patching(info), nativeApplyPatch: true });

// For the models without function calling: ChatGPT's own `chatgpt-4o-latest` and the first o1 previews.
const withoutTools = (info: ModelInfo): ModelInfo => ({ ...info, nativeTools: false, parallelToolCalls: false });

/** OpenAI's models. An unknown `gpt-` id gets the values of a current chat model. */
export const OPENAI_MODELS: readonly ModelTableEntry[] = [
  // The models behind ChatGPT have the smaller context of a chat model, not their family's, and are not
  // the coding models that know apply_patch.
  { prefix: 'gpt-5-chat', info: chat('gpt-5-chat', 128_000, 16_384) },
  { prefix: 'gpt-5.1-chat', info: reasoning('gpt-5-chat', 128_000, 16_384) },
  { prefix: 'gpt-5.2-chat', info: reasoning('gpt-5-chat', 128_000, 16_384) },
  { prefix: 'gpt-5-pro', info: patching(reasoning('gpt-5', 400_000, 272_000)) },
  { prefix: 'gpt-5.', info: nativePatching(reasoning('gpt-5', 400_000, 128_000)) },
  { prefix: 'gpt-5', info: patching(reasoning('gpt-5', 400_000, 128_000)) },
  { prefix: 'gpt-4.1', info: chat('gpt-4.1', 1_047_576, 32_768) },
  // The first gpt-4o snapshot answered with at most 4k tokens; later ones with 16k.
  { prefix: 'gpt-4o-2024-05-13', info: chat('gpt-4o', 128_000, 4_096) },
  { prefix: 'gpt-4o', info: chat('gpt-4o', 128_000, 16_384) },
  { prefix: 'chatgpt-4o', info: withoutTools(chat('gpt-4o', 128_000, 16_384)) },
  // The GPT-4 Turbo previews carry the `gpt-4-` prefix but not the 8k context of the first GPT-4.
  { prefix: 'gpt-4-turbo', info: chat('gpt-4', 128_000, 4_096) },
  { prefix: 'gpt-4-1106', info: chat('gpt-4', 128_000, 4_096) },
  { prefix: 'gpt-4-0125', info: chat('gpt-4', 128_000, 4_096) },
  { prefix: 'gpt-4-32k', info: chat('gpt-4', 32_768, 4_096) },
  { prefix: 'gpt-4', info: chat('gpt-4', 8_192, 4_096) },
  { prefix: 'gpt-3.5-turbo', info: chat('gpt-3.5', 16_385, 4_096) },
  { prefix: 'gpt-oss', info: { ...chat('gpt-oss', 131_072, 32_768), reasoning: true } },
  { prefix: 'o1-mini', info: withoutTools(reasoning('o-series', 128_000, 65_536)) },
  { prefix: 'o1-preview', info: withoutTools(reasoning('o-series', 128_000, 32_768)) },
  { prefix: 'o1', info: reasoning('o-series', 200_000, 100_000) },
  { prefix: 'o3', info: reasoning('o-series', 200_000, 100_000) },
  { prefix: 'o4', info: reasoning('o-series', 200_000, 100_000) },
  { prefix: 'codex-', info: patching(reasoning('codex', 200_000, 100_000)) },
  { prefix: 'gpt-', info: chat('gpt', 128_000, 16_384) },
];

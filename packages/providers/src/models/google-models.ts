import type { ModelInfo, ModelTableEntry } from './model-info.js';

/** A Gemini model: a million tokens of context, native tools with parallel calls. */
const gemini = (maxOutputTokens: number, reasoning: boolean): ModelInfo => ({
  family: 'gemini',
  editTool: 'edit_file',
  contextWindow: 1_048_576,
  maxOutputTokens,
  nativeTools: true,
  parallelToolCalls: true,
  reasoning,
  stopSequences: true,
});

/**
 * Google's models on the Gemini API, from its model pages as of late 2025. Gemma, which the same API
 * serves, has no function calling: an agent in `toolProtocol: 'auto'` gives it the XML protocol. An
 * unknown `gemini-` id gets the newest generation's values.
 */
export const GOOGLE_MODELS: readonly ModelTableEntry[] = [
  { prefix: 'gemini-3', info: gemini(65_536, true) },
  { prefix: 'gemini-2.5', info: gemini(65_536, true) },
  { prefix: 'gemini-2.0', info: gemini(8_192, false) },
  { prefix: 'gemini-1.5', info: { ...gemini(8_192, false), contextWindow: 2_097_152 } },
  { prefix: 'gemini-', info: gemini(65_536, true) },
  {
    prefix: 'gemma-',
    info: {
      family: 'gemma',
      editTool: 'edit_file',
      contextWindow: 131_072,
      maxOutputTokens: 8_192,
      nativeTools: false,
      parallelToolCalls: false,
      reasoning: false,
      stopSequences: true,
    },
  },
];

import type { EditTool, ModelPricing } from '@agentloop/spec';

/**
 * What agentloop knows of a model, as far as the loop, compaction, cost and the prompt need to know: one
 * row of the model table (its family's values), with its price from MODEL_PRICES and an app's or the
 * CLI configuration's corrections (`models`, `modelInfo`) applied. Providers report it to the loop as
 * their `capabilities`.
 */
export interface ModelInfo {
  /** The family the model belongs to (`claude`, `gpt-5`, `gpt-4o`, ...); absent for a model no table knows. */
  family?: string;
  /** Context window in tokens (input and output together). */
  contextWindow: number;
  /** The most output tokens one response may have. */
  maxOutputTokens: number;
  /** Native function calling. */
  nativeTools: boolean;
  /** Several tool calls in one response. */
  parallelToolCalls: boolean;
  /** Reasoning (thinking) output. */
  reasoning: boolean;
  /**
   * How a reasoning model is told to think, where the API has more than one way (Anthropic):
   * - `budget`: only a token budget (`thinking: {type: 'enabled', budget_tokens}`), Claude 4.5 and earlier;
   * - `adaptive`: adaptive thinking with an effort (`thinking: {type: 'adaptive'}`, `output_config.effort`),
   *   the budget form still accepted but deprecated (Claude Opus 4.6, Sonnet 4.6);
   * - `adaptive-only`: the budget form is rejected with a 400, and so, on some, is `disabled`
   *   (Claude Opus 4.7 and later, Mythos, Fable, the Claude 5 family).
   * Absent: `budget`. Ignored unless `reasoning` is true.
   */
  thinking?: 'budget' | 'adaptive' | 'adaptive-only';
  /** Stop sequences (OpenAI's reasoning models reject `stop`). */
  stopSequences: boolean;
  /** What the model costs (`MODEL_PRICES`); absent when the price is not known. */
  pricing?: ModelPricing;
  /**
   * The tool the family is trained to change files with: `apply_patch` for OpenAI's GPT-5 and codex
   * models, `edit_file` (also when absent) for the others. The CLI's built-in tools offer this one.
   */
  editTool?: EditTool;
  /**
   * The Responses API has the model's own `apply_patch` tool (`tools: [{ type: "apply_patch" }]`): GPT-5.1
   * and later. OpenAIResponsesProvider sends it in place of a registered `apply_patch` tool's function.
   * Absent: false.
   */
  nativeApplyPatch?: boolean;
  /** Guidance for this model that the system prompt adds after the agent's own; absent: none. */
  instructions?: string;
}

/**
 * Corrections by model, from an app (`models` of a provider's options or createProvider) or the CLI's
 * `[models."NAME"]` tables: a key is a model id, or the start of the ids it covers (`qwen3` for
 * `qwen3-coder:30b`); the exact id wins, then the longest key the id starts with. A router prefix
 * (`openai/`) is ignored on either side, and case does not matter.
 */
export type ModelOverrides = Readonly<Record<string, Partial<ModelInfo>>>;

/** One row of a model table: the first entry whose `prefix` starts the model id wins, longest first. */
export interface ModelTableEntry {
  /** The start of the model ids this row describes, e.g. `claude-sonnet-4`. */
  prefix: string;
  info: ModelInfo;
}

import type { ModelPricing } from '@agentloop/spec';

/** What a model can do, as far as the loop needs to know. */
export interface ModelInfo {
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
}

/** One row of a model table: the first entry whose `prefix` starts the model id wins, longest first. */
export interface ModelTableEntry {
  /** The start of the model ids this row describes, e.g. `claude-sonnet-4`. */
  prefix: string;
  info: ModelInfo;
}

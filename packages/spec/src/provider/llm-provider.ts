import type { Message } from '../messages/message.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { ModelChunk } from './model-chunk.js';
import type { ModelPricing } from './model-pricing.js';

/** Whether the model may, must or must not call a tool. */
export type ToolChoice = 'auto' | 'required' | 'none';

/** How hard a reasoning model thinks, from not at all to as much as it can. */
export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** Sampling and budget settings of a model call; each provider maps what it supports. */
export interface ModelSettings {
  /** Upper bound on output tokens. */
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  /** Reasoning budget in tokens, for models that think (0 or absent: provider default). */
  thinkingBudgetTokens?: number;
  /**
   * Reasoning effort, for models that take one. The levels are OpenAI's; a provider maps them to its own
   * (Anthropic has no `none` or `minimal`) and a model rejects the levels it does not know (`xhigh` and
   * `max` are only on the newest).
   */
  reasoningEffort?: ReasoningEffort;
}

/** One model call. */
export interface ModelRequest {
  /** The system prompt. */
  systemPrompt: string;
  /** The conversation so far, oldest first (no system messages: see `systemPrompt`). */
  messages: readonly Message[];
  /** Tools offered through native function calling (empty in the XML protocol). */
  tools: readonly ToolDefinition[];
  /** Whether a tool call is required. Providers fall back to `auto` where the API forbids it. */
  toolChoice: ToolChoice;
  /**
   * `false`: the model should make at most one tool call per response (OpenAI `parallel_tool_calls: false`,
   * Anthropic `disable_parallel_tool_use`). Absent: the API's default, which allows several. A provider
   * whose API or model has no such switch ignores it; the loop runs the calls of a response one by one
   * anyway when it sets this.
   */
  parallelToolCalls?: boolean;
  /** Text at which the model must stop (used by the XML protocol: `</tool>`). */
  stopSequences?: readonly string[];
  /** Sampling settings. */
  settings?: ModelSettings;
  /** Aborts the request; a provider stops streaming and does not retry once it fires. */
  signal: AbortSignal;
}

/**
 * The tool a model's family is trained to change files with: `edit_file` (replace an exact text, as
 * Claude's models do) or `apply_patch` (a `*** Begin Patch` patch, as OpenAI's GPT-5 and codex models do).
 */
export type EditTool = 'edit_file' | 'apply_patch';

/** What a provider and its model can do. */
export interface ProviderCapabilities {
  /** The model id requests go to. */
  modelId: string;
  /** Native function calling. */
  nativeTools: boolean;
  /** Several tool calls in one response. */
  parallelToolCalls: boolean;
  /** Stop sequences. */
  stopSequences: boolean;
  /** Reasoning (thinking) output. */
  reasoning: boolean;
  /**
   * Context window in tokens (input and output together). The agent compacts the conversation before a
   * request would fill it; an agent option can override it.
   */
  contextWindow: number;
  /** What the model costs; absent when unknown, and then no cost is reported (none is guessed). */
  pricing?: ModelPricing;
  /** The model's family in the provider's model table (`claude`, `gpt-5`, ...); absent when the table does not know it. */
  family?: string;
  /** The tool the model changes files with best; absent: `edit_file`. */
  editTool?: EditTool;
  /** Guidance for this model the system prompt adds after the agent's own; absent: none. */
  instructions?: string;
}

/**
 * The version of the provider contract this package describes. A provider states the version it was
 * written against, so that an agent can refuse, with a clear message, a provider built for another one.
 * `v2` streams chunks in batches; a `v1` provider (one chunk at a time, see LLMProviderV1) is still
 * accepted by the agent, which wraps each of its chunks in a batch of its own.
 */
export const PROVIDER_SPECIFICATION_VERSION = 'v2';

/**
 * A model behind an API. `stream` yields the chunks in batches, as they arrive: a batch holds what one read
 * from the network produced (a provider that cannot tell yields one batch per event of its API), and the
 * last batch ends with a `finish` chunk. Batches are in order and are never empty; a consumer reads every
 * chunk of a batch before the next. A provider reports failure by throwing an AgentloopError (a
 * ProviderError for API failures, a CancelledError when the request's signal aborted). Retries happen
 * inside the provider, announced by `retry` chunks.
 *
 * Batches rather than single chunks because the work per chunk is small next to a promise per chunk in
 * every layer a stream passes (retry, timeout, cancel, the loop).
 */
export interface LLMProvider {
  /** The version of the provider contract the provider implements: `v2`. */
  readonly specificationVersion: typeof PROVIDER_SPECIFICATION_VERSION;
  /** A short id of the vendor or server kind, e.g. `anthropic`, `openai`, `openai-compatible`. */
  readonly id: string;
  /** What the provider and model support. */
  readonly capabilities: ProviderCapabilities;
  /** Calls the model, streaming its chunks in batches. */
  stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]>;
}

/**
 * A provider written against the first version of the contract: `stream` yields one chunk at a time and
 * ends with a `finish` chunk. The agent still accepts one (each chunk becomes a batch of its own); a new
 * provider implements LLMProvider (`v2`).
 */
export interface LLMProviderV1 {
  /** The version of the provider contract the provider implements: `v1`. */
  readonly specificationVersion: 'v1';
  /** A short id of the vendor or server kind. */
  readonly id: string;
  /** What the provider and model support. */
  readonly capabilities: ProviderCapabilities;
  /** Calls the model, streaming one chunk at a time. */
  stream(request: ModelRequest): AsyncIterable<ModelChunk>;
}

/** A provider of either contract version, as an agent accepts it. */
export type AnyLLMProvider = LLMProvider | LLMProviderV1;

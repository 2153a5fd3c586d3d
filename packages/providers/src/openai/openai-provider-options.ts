import type { RetryPolicy, Sleep } from '@agentloop/provider-utils';
import type { ClientOptions } from 'openai';
import type { ModelInfo, ModelOverrides } from '../models/index.js';

/** Options of OpenAIProvider and OpenAIResponsesProvider. */
export interface OpenAIProviderOptions {
  /** The model, e.g. `gpt-4o`, or a local model's name on an OpenAI-compatible server. */
  model: string;
  /** The API key; defaults to `OPENAI_API_KEY`, or a placeholder for an OpenAI-compatible server (which needs none). */
  apiKey?: string;
  /**
   * The API's base URL; defaults to `OPENAI_BASE_URL` or OpenAI's. Any other server (Ollama, vLLM,
   * llama.cpp, LM Studio, OpenRouter) makes the provider `openai-compatible`.
   */
  baseURL?: string;
  /** Treat the server as OpenAI-compatible (or as OpenAI itself) whatever its URL. */
  compatible?: boolean;
  /** Corrections to the model table's entry for `model` (context window, tools, reasoning, …). */
  modelInfo?: Partial<ModelInfo>;
  /**
   * Corrections by model, e.g. `{ 'my-model': { contextWindow: 65_536, editTool: 'apply_patch' } }`: the
   * entry for the model (by id, or the longest key its id starts with) applies before `modelInfo`. Lets an
   * app describe the models it may use, a local one the table does not know among them, in one place.
   */
  models?: ModelOverrides;
  /** Overrides of the retry policy (4 retries, exponential backoff with full jitter, honouring retry-after). */
  retry?: Partial<RetryPolicy>;
  /**
   * Milliseconds a stream may stay silent before it counts as broken and is retried (0 disables). Default
   * 60 000, and 300 000 for OpenAI-compatible servers, which may load the model before the first token.
   */
  idleTimeoutMs?: number;
  /**
   * Chat Completions only: send the model's reasoning back with its assistant messages, as
   * `reasoning_content`, which DeepSeek's thinking mode requires with tool calls and Kimi's thinking models
   * and local reasoning models (Qwen3, gpt-oss) use. Default: on for DeepSeek's and Moonshot's APIs and for a
   * server of one's own (a loopback or private address, a one-label name such as `ollama`, a `.local`,
   * `.lan` or `.internal` name); off elsewhere, since OpenAI has no such field and strict hosted servers
   * (Groq, Cerebras) answer 400 to a field they do not know.
   */
  sendReasoning?: boolean;
  /** Stream responses (default). With `false`, each call is one plain request replayed as chunks. */
  streaming?: boolean;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Further SDK client options (fetch, logger, organization, timeout); retries stay off in the SDK: the provider retries. */
  clientOptions?: Omit<ClientOptions, 'apiKey' | 'baseURL' | 'maxRetries'>;
  /** Makes ids for tool calls that a server sent without a usable one. */
  generateId?: () => string;
  /** Waits between retries; inject a fake in tests. */
  sleep?: Sleep;
  /** Source of retry jitter in [0, 1). */
  random?: () => number;
}

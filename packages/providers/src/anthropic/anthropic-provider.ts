import type { RetryPolicy, Sleep } from '@agentloop/provider-utils';
import type { LLMProvider, ModelChunk, ModelRequest, ProviderCapabilities } from '@agentloop/spec';
import type Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions } from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { nonBlank } from '../environment/non-blank.js';
import type { ErrorSource } from '../errors/index.js';
import { type ModelInfo, type ModelOverrides, providerCapabilities, resolveModelInfo } from '../models/index.js';
import { modelCallSettings, type OpenedAttempt, streamModelCall } from '../streaming/index.js';
import { anthropicMessageEvents } from './anthropic-message-events.js';
import { AnthropicStreamReader } from './anthropic-stream-reader.js';
import { type AnthropicRequestBody, buildAnthropicRequest } from './build-anthropic-request.js';
import { checkAnthropicMessage } from './check-anthropic-message.js';
import { consoleWarningsToLogger } from './console-warnings-to-logger.js';
import { createAnthropicClient } from './create-anthropic-client.js';
import { toAnthropicError } from './to-anthropic-error.js';

/** Options of an AnthropicProvider. */
export interface AnthropicProviderOptions {
  /** The model, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** The API key; defaults to `ANTHROPIC_API_KEY`. */
  apiKey?: string;
  /** The API's base URL (a proxy, a gateway, a test server); defaults to `ANTHROPIC_BASE_URL` or Anthropic's. */
  baseURL?: string;
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
  /** Milliseconds a stream may stay silent before it counts as broken and is retried (default 60 000; 0 disables). */
  idleTimeoutMs?: number;
  /** Stream responses (default). With `false`, each call is one plain request replayed as chunks. */
  streaming?: boolean;
  /** Mark the tools, system prompt and conversation as cacheable (default true): an agent resends them every step. */
  promptCaching?: boolean;
  /**
   * Whether a Claude 4.6-or-later model sends its thinking as a summary (default) or leaves it out
   * (`omitted`: faster to the first token, thinking blocks carry only their signature). Opus 4.7 and later
   * omit it unless asked.
   */
  thinkingDisplay?: 'summarized' | 'omitted';
  /** Headers sent with every request (e.g. `anthropic-beta`). */
  headers?: Record<string, string>;
  /** Further SDK client options (fetch, logger, timeout); retries stay off in the SDK: the provider retries. */
  clientOptions?: Omit<ClientOptions, 'apiKey' | 'baseURL' | 'maxRetries'>;
  /** Waits between retries; inject a fake in tests. */
  sleep?: Sleep;
  /** Source of retry jitter in [0, 1). */
  random?: () => number;
}

/** Default silence allowed in a stream: Anthropic sends `ping` events well within it. */
export const DEFAULT_ANTHROPIC_IDLE_TIMEOUT_MS = 60_000;

/**
 * Claude through Anthropic's Messages API, streaming. Thinking signatures and redacted thinking are kept
 * for later turns, `toolChoice: 'required'` becomes `any` (or `auto` next to thinking), failures are
 * retried here (the SDK's own retries are off) and reported as ProviderErrors.
 */
export class AnthropicProvider implements LLMProvider {
  readonly specificationVersion = 'v2';
  readonly id = 'anthropic';
  readonly capabilities: ProviderCapabilities;
  private readonly client: Anthropic;
  private readonly modelInfo: ModelInfo;
  private readonly errorSource: ErrorSource;

  constructor(private readonly options: AnthropicProviderOptions) {
    this.modelInfo = resolveModelInfo(options.model, options);
    this.capabilities = providerCapabilities(options.model, this.modelInfo);
    this.client = createAnthropicClient(options);
    // The base URL as the client resolves it: the option, else the environment.
    const baseURL = nonBlank(options.baseURL) ?? nonBlank(process.env.ANTHROPIC_BASE_URL);
    this.errorSource = { provider: this.id, model: options.model, ...(baseURL ? { baseURL } : {}) };
  }

  stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const body = buildAnthropicRequest(request, {
      model: this.options.model,
      modelInfo: this.modelInfo,
      promptCaching: this.options.promptCaching ?? true,
      thinkingDisplay: this.options.thinkingDisplay,
    });
    const offeredTools = request.tools.length > 0;
    return streamModelCall({
      provider: this.id,
      request,
      ...modelCallSettings(this.options, DEFAULT_ANTHROPIC_IDLE_TIMEOUT_MS),
      open: (signal) => this.open(body, signal),
      toError: (error) => toAnthropicError(error, offeredTools, this.errorSource),
    });
  }

  private async open(body: AnthropicRequestBody, signal: AbortSignal): Promise<OpenedAttempt<RawMessageStreamEvent>> {
    const reader = new AnthropicStreamReader();
    if (this.options.streaming === false) {
      const message = await consoleWarningsToLogger(this.client, () =>
        this.client.messages.create({ ...body, stream: false }, { signal }),
      );
      return { events: anthropicMessageEvents(checkAnthropicMessage(message, this.errorSource)), reader };
    }
    const stream = consoleWarningsToLogger(this.client, () =>
      this.client.messages.create({ ...body, stream: true }, { signal }),
    );
    return { events: await stream, reader };
  }
}

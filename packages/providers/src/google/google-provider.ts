import { randomUUID } from 'node:crypto';
import type { RetryPolicy, Sleep } from '@agentloop/provider-utils';
import type { LLMProvider, ModelChunk, ModelRequest, ProviderCapabilities } from '@agentloop/spec';
import type { GenerateContentResponse, GoogleGenAI } from '@google/genai';
import type { ErrorSource } from '../errors/index.js';
import { type ModelInfo, type ModelOverrides, providerCapabilities, resolveModelInfo } from '../models/index.js';
import { modelCallSettings, type OpenedAttempt, streamModelCall } from '../streaming/index.js';
import { buildGoogleRequest, type GoogleRequest } from './build-google-request.js';
import { createGoogleClient, type GoogleClientOptions, googleBaseURL } from './create-google-client.js';
import { GoogleStreamReader } from './google-stream-reader.js';
import { toGoogleConnectError, toGoogleError } from './to-google-error.js';

/** Options of a GoogleProvider. */
export interface GoogleProviderOptions {
  /** The model, e.g. `gemini-2.5-flash`. */
  model: string;
  /** The API key; defaults to `GEMINI_API_KEY`, else `GOOGLE_API_KEY`. */
  apiKey?: string;
  /** The API's base URL (a proxy, a gateway, a test server); defaults to `GOOGLE_GEMINI_BASE_URL` or Google's. */
  baseURL?: string;
  /** Corrections to the model table's entry for `model` (context window, tools, reasoning, …). */
  modelInfo?: Partial<ModelInfo>;
  /**
   * Corrections by model, e.g. `{ 'gemini-3-pro': { contextWindow: 1_048_576 } }`: the entry for the model
   * (by id, or the longest key its id starts with) applies before `modelInfo`, as for every provider.
   */
  models?: ModelOverrides;
  /** Overrides of the retry policy (4 retries, exponential backoff with full jitter, honouring the server's delay). */
  retry?: Partial<RetryPolicy>;
  /** Milliseconds a stream may stay silent before it counts as broken and is retried (default 60 000; 0 disables). */
  idleTimeoutMs?: number;
  /** Stream responses (default). With `false`, each call is one plain request replayed as chunks. */
  streaming?: boolean;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Further options of the SDK's HTTP layer (`fetch`, `timeout`, `apiVersion`); its retries stay off. */
  clientOptions?: GoogleClientOptions;
  /** Ids for function calls the API sent without one. */
  generateId?: () => string;
  /** Waits between retries; inject a fake in tests. */
  sleep?: Sleep;
  /** Source of retry jitter in [0, 1). */
  random?: () => number;
}

/**
 * Default silence allowed in a stream. Gemini sends no pings, and a thinking model may be silent for a
 * while before its first part: the same minute as Anthropic's is ample for the thinking budgets used here.
 */
export const DEFAULT_GOOGLE_IDLE_TIMEOUT_MS = 60_000;

/**
 * Gemini through Google's Gemini API (`@google/genai`), streaming: native function calling with parallel
 * calls, thought summaries with their signatures kept for later turns, usage, and failures retried here
 * (the SDK's own retries are off) and reported as ProviderErrors.
 */
export class GoogleProvider implements LLMProvider {
  readonly specificationVersion = 'v2';
  readonly id = 'google';
  readonly capabilities: ProviderCapabilities;
  private readonly client: GoogleGenAI;
  private readonly modelInfo: ModelInfo;
  private readonly errorSource: ErrorSource;
  private readonly generateId: () => string;

  constructor(private readonly options: GoogleProviderOptions) {
    this.modelInfo = resolveModelInfo(options.model, options);
    this.capabilities = providerCapabilities(options.model, this.modelInfo);
    this.client = createGoogleClient(options);
    const baseURL = googleBaseURL(options);
    this.errorSource = { provider: this.id, model: options.model, ...(baseURL ? { baseURL } : {}) };
    this.generateId = options.generateId ?? (() => `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`);
  }

  stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const body = buildGoogleRequest(request, { model: this.options.model, modelInfo: this.modelInfo });
    const offeredTools = request.tools.length > 0;
    return streamModelCall({
      provider: this.id,
      request,
      ...modelCallSettings(this.options, DEFAULT_GOOGLE_IDLE_TIMEOUT_MS),
      open: (signal) => this.open(body, signal),
      toError: (error) => toGoogleError(error, offeredTools, this.errorSource),
    });
  }

  private async open(body: GoogleRequest, signal: AbortSignal): Promise<OpenedAttempt<GenerateContentResponse>> {
    const reader = new GoogleStreamReader(this.errorSource, this.generateId);
    const call = { ...body, config: { ...body.config, abortSignal: signal } };
    try {
      if (this.options.streaming === false) {
        return { events: [await this.client.models.generateContent(call)], reader };
      }
      return { events: await this.client.models.generateContentStream(call), reader };
    } catch (error) {
      // The SDK resolves the stream once the response's headers are in: a failure before is the connection's.
      throw toGoogleConnectError(error, this.errorSource);
    }
  }
}

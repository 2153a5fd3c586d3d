import type { ModelChunk, ModelRequest } from '@agentloop/spec';
import type { ErrorSource } from '../errors/index.js';
import { modelCallSettings, type OpenedAttempt, streamModelCall } from '../streaming/index.js';
import type { OpenAIProviderOptions } from './openai-provider-options.js';
import { toOpenAIError } from './to-openai-error.js';

/** Default silence allowed in a stream from OpenAI, and from a compatible server that may load its model first. */
export const DEFAULT_OPENAI_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_COMPATIBLE_IDLE_TIMEOUT_MS = 300_000;

/** One model call of OpenAIProvider or OpenAIResponsesProvider. */
export interface OpenAICall {
  /** The provider's id, for error messages. */
  provider: 'openai' | 'openai-compatible';
  /** The model, base URL and whether a key was sent, for error messages; the provider's id alone without it. */
  source?: ErrorSource;
  /** Whether the server is OpenAI-compatible rather than OpenAI, which sets the default idle timeout. */
  compatible: boolean;
  /** The provider's options: retry policy, idle timeout, sleep and jitter. */
  options: OpenAIProviderOptions;
  /** The request; its signal cancels the call. */
  request: ModelRequest;
  /** Sends the request once through the provider's API, with the signal it is given; see ModelCall's `open`. */
  open: (signal: AbortSignal) => Promise<OpenedAttempt<unknown>>;
}

/**
 * Runs a model call of either OpenAI API with what both providers share: the caller's retry settings,
 * the idle timeout for OpenAI or a compatible server, and the mapping of OpenAI SDK errors.
 */
export function streamOpenAICall(call: OpenAICall): AsyncIterable<readonly ModelChunk[]> {
  const { provider, compatible, options, request } = call;
  const offeredTools = request.tools.length > 0;
  return streamModelCall({
    provider,
    request,
    ...modelCallSettings(options, compatible ? DEFAULT_COMPATIBLE_IDLE_TIMEOUT_MS : DEFAULT_OPENAI_IDLE_TIMEOUT_MS),
    open: call.open,
    toError: (error) => toOpenAIError(error, call.source ?? provider, offeredTools),
  });
}

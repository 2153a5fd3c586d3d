import type { LLMProvider } from '@agentloop/core';
import type { ProviderSpec, RetryOverrides } from '../config/index.js';
import type { SdkLogger } from '../verbose/sdk-logger.js';

/** Builds the provider a spec describes. */
export type ProviderFactory = (spec: ProviderSpec) => Promise<LLMProvider>;

/** What the providers a factory builds share. */
export interface ProviderFactoryOptions {
  /**
   * The vendor SDK's logger. Default: the providers' own, which logs nothing (the SDKs' default, `console`,
   * would print what a server sent raw).
   */
  sdkLogger?: SdkLogger;
  /** Overrides of the providers' retry policy (the configuration's `[retry]`); absent: their default. */
  retry?: RetryOverrides;
}

/**
 * A factory of providers from `@agentloop/providers`, importing only the vendor module it needs when it is
 * needed: the Anthropic, OpenAI and Google SDKs take longer to load than the CLI takes to show its prompt, and a
 * user of one vendor never loads the other's.
 */
export function createProviderFactory(options: ProviderFactoryOptions = {}): ProviderFactory {
  return async (spec) => {
    const connection = {
      model: spec.model,
      ...(spec.apiKey ? { apiKey: spec.apiKey } : {}),
      ...(spec.baseURL ? { baseURL: spec.baseURL } : {}),
      ...(spec.headers ? { headers: spec.headers } : {}),
      ...(spec.models ? { models: spec.models } : {}),
      ...(options.sdkLogger ? { clientOptions: { logger: options.sdkLogger } } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    };
    switch (spec.type) {
      case 'anthropic': {
        const { AnthropicProvider } = await import('@agentloop/providers/anthropic');
        return new AnthropicProvider(connection);
      }
      case 'openai': {
        const { OpenAIProvider } = await import('@agentloop/providers/openai');
        return new OpenAIProvider(connection);
      }
      case 'openai-responses': {
        const { OpenAIResponsesProvider } = await import('@agentloop/providers/openai');
        return new OpenAIResponsesProvider(connection);
      }
      case 'google': {
        const { GoogleProvider } = await import('@agentloop/providers/google');
        // Google's SDK takes no logger: it logs nothing on the paths the provider uses.
        const { clientOptions: _logger, ...google } = connection;
        return new GoogleProvider(google);
      }
    }
  };
}

/** Builds a provider from `@agentloop/providers` (see createProviderFactory). */
export const createProvider: ProviderFactory = createProviderFactory();

import type { RetryPolicy } from '@agentloop/provider-utils';
import { AgentloopError, type LLMProvider } from '@agentloop/spec';
import type { ModelInfo, ModelOverrides } from './models/index.js';

/** The provider kinds `createProvider` knows: the prefix of a provider spec. */
export type ProviderKind = 'anthropic' | 'openai' | 'openai-responses' | 'openai-compatible' | 'google';

/** `kind:model`, e.g. `anthropic:claude-sonnet-4-5`, `openai:gpt-4o`, `openai-compatible:llama3.1:8b`, `google:gemini-2.5-flash`. */
export type ProviderSpec = `${ProviderKind}:${string}`;

/** Options every provider takes; the rest have defaults (see each provider's options). */
export interface CreateProviderOptions {
  /** The API key; defaults to the vendor's environment variable. */
  apiKey?: string;
  /** The API's base URL; required for `openai-compatible` unless `OPENAI_BASE_URL` is set. */
  baseURL?: string;
  /** Corrections to the model table's entry for the model. */
  modelInfo?: Partial<ModelInfo>;
  /**
   * Corrections by model, e.g. `{ 'my-model': { contextWindow: 65_536, editTool: 'apply_patch' } }`: the
   * entry for the model (by id, or the longest key its id starts with) applies before `modelInfo`. Lets an
   * app describe the models it may use, a local one the table does not know among them, in one place.
   */
  models?: ModelOverrides;
  /** Overrides of the retry policy. */
  retry?: Partial<RetryPolicy>;
  /** Milliseconds a stream may stay silent before it counts as broken. */
  idleTimeoutMs?: number;
  /** Stream responses (default true). */
  streaming?: boolean;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Chat Completions only (`openai:`, `openai-compatible:`): send the model's reasoning back as
   * `reasoning_content`; see OpenAIProviderOptions.sendReasoning for the default.
   */
  sendReasoning?: boolean;
}

const KINDS: readonly ProviderKind[] = ['anthropic', 'openai', 'openai-responses', 'openai-compatible', 'google'];

/**
 * Creates the provider a spec names. The vendor's module is loaded on demand, so an app that only talks
 * to Anthropic never loads the `openai` SDK nor Google's, and so on for each vendor. Throws an AgentloopError
 * (`invalid_provider_spec`) for a spec it cannot read.
 */
export async function createProvider(
  spec: ProviderSpec | (string & {}),
  options: CreateProviderOptions = {},
): Promise<LLMProvider> {
  const separator = spec.indexOf(':');
  const kind = spec.slice(0, separator) as ProviderKind;
  // Only the first colon separates: model names such as `llama3.1:8b` have their own.
  const model = spec.slice(separator + 1);
  if (separator < 0 || !KINDS.includes(kind) || model === '') {
    throw new AgentloopError(
      `Cannot read the provider spec "${spec}": expected one of ${KINDS.map((name) => `${name}:<model>`).join(', ')}.`,
      {
        code: 'invalid_provider_spec',
      },
    );
  }
  switch (kind) {
    case 'anthropic': {
      const { AnthropicProvider } = await import('./anthropic/index.js');
      return new AnthropicProvider({ ...options, model });
    }
    case 'google': {
      const { GoogleProvider } = await import('./google/index.js');
      const { sendReasoning: _chatCompletionsOnly, ...googleOptions } = options;
      return new GoogleProvider({ ...googleOptions, model });
    }
    case 'openai-responses': {
      const { OpenAIResponsesProvider } = await import('./openai/index.js');
      return new OpenAIResponsesProvider({ ...options, model });
    }
    case 'openai-compatible': {
      const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL;
      if (!baseURL) {
        throw new AgentloopError(`"${spec}" needs the server's URL: pass baseURL or set OPENAI_BASE_URL.`, {
          code: 'invalid_provider_spec',
        });
      }
      const { OpenAIProvider } = await import('./openai/index.js');
      return new OpenAIProvider({ ...options, model, baseURL, compatible: true });
    }
    default: {
      const { OpenAIProvider } = await import('./openai/index.js');
      return new OpenAIProvider({ ...options, model });
    }
  }
}

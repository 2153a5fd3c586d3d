import { AgentloopError, type LLMProvider } from '@agentloop/core';
import { type CreateProviderOptions, createProvider } from './create-provider.js';

/** The model used when the environment picks Anthropic and no model is given. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-6';
/** The model used when the environment picks OpenAI and no model is given. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4o';

/** Options of providerFromEnvironment. */
export interface ProviderFromEnvironmentOptions extends CreateProviderOptions {
  /** A model id, or a whole spec (`openai:gpt-4o`) that also picks the provider. */
  model?: string;
  /** The environment to read; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

const SPEC = /^(anthropic|openai|openai-responses|openai-compatible):/;
const OPENAI_HOST = /^https:\/\/api\.openai\.com(?:\/|$)/;

/**
 * Picks a provider from the environment: a spec in `model` decides; otherwise `ANTHROPIC_API_KEY` means
 * Anthropic, `OPENAI_BASE_URL` (other than OpenAI's) an OpenAI-compatible server (the model from `model`
 * or `OPENAI_MODEL`), and `OPENAI_API_KEY` OpenAI. Throws an AgentloopError (`provider_not_configured`; `model_not_configured` for a local server without a model)
 * when none is set.
 */
export async function providerFromEnvironment(options: ProviderFromEnvironmentOptions = {}): Promise<LLMProvider> {
  const { model, env = process.env, ...rest } = options;
  const anthropicKey = env.ANTHROPIC_API_KEY;
  const openaiKey = env.OPENAI_API_KEY;
  const baseURL = env.OPENAI_BASE_URL;
  if (model !== undefined && SPEC.test(model)) {
    const anthropic = model.startsWith('anthropic:');
    return createProvider(model, {
      apiKey: anthropic ? anthropicKey : openaiKey,
      baseURL: anthropic ? env.ANTHROPIC_BASE_URL : baseURL,
      ...rest,
    });
  }
  if (anthropicKey) {
    return createProvider(`anthropic:${model ?? DEFAULT_ANTHROPIC_MODEL}`, {
      apiKey: anthropicKey,
      baseURL: env.ANTHROPIC_BASE_URL,
      ...rest,
    });
  }
  if (baseURL && !OPENAI_HOST.test(baseURL)) {
    const localModel = model ?? env.OPENAI_MODEL;
    if (!localModel) {
      throw new AgentloopError(
        'OPENAI_BASE_URL names an OpenAI-compatible server: say which model to use (the `model` option or OPENAI_MODEL).',
        { code: 'model_not_configured' },
      );
    }
    return createProvider(`openai-compatible:${localModel}`, { apiKey: openaiKey, baseURL, ...rest });
  }
  if (openaiKey) {
    return createProvider(`openai:${model ?? env.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL}`, {
      apiKey: openaiKey,
      baseURL,
      ...rest,
    });
  }
  throw new AgentloopError(
    'No model provider is configured: set ANTHROPIC_API_KEY, OPENAI_API_KEY, or OPENAI_BASE_URL for a local server.',
    {
      code: 'provider_not_configured',
    },
  );
}

/**
 * Like providerFromEnvironment, but undefined when the environment configures no provider (other
 * failures still throw). For apps and examples that fall back to something else, such as a scripted model.
 */
export async function optionalProviderFromEnvironment(
  options: ProviderFromEnvironmentOptions = {},
): Promise<LLMProvider | undefined> {
  try {
    return await providerFromEnvironment(options);
  } catch (error) {
    if (AgentloopError.isInstance(error) && error.code === 'provider_not_configured') return undefined;
    throw error;
  }
}

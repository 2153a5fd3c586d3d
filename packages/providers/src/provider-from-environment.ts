import type { LLMProvider } from '@agentloop/spec';
import { type CreateProviderOptions, createProvider } from './create-provider.js';
import { nonBlank } from './environment/non-blank.js';
import {
  type Environment,
  noProviderInEnvironment,
  type ProviderChoice,
  readProviderEnvironment,
} from './environment/read-provider-environment.js';
import { modelNotConfigured, providerNotConfigured } from './errors/index.js';

export { DEFAULT_ANTHROPIC_MODEL, DEFAULT_GOOGLE_MODEL, DEFAULT_OPENAI_MODEL } from './environment/index.js';

/** Options of providerFromEnvironment. */
export interface ProviderFromEnvironmentOptions extends CreateProviderOptions {
  /** A model id, or a whole spec (`openai:gpt-4o`) that also picks the provider. */
  model?: string;
  /** The environment to read; defaults to `process.env`. */
  env?: Environment;
}

/**
 * Creates the provider the environment describes, as readProviderEnvironment reads it (the table of
 * variables is in this package's README): a spec in `model` decides; otherwise ANTHROPIC_API_KEY or
 * ANTHROPIC_AUTH_TOKEN means Anthropic, OPENAI_BASE_URL (other than OpenAI's) an OpenAI-compatible
 * server, OPENAI_API_KEY OpenAI, GEMINI_API_KEY or GOOGLE_API_KEY Google. The model is `model`, else
 * ANTHROPIC_MODEL / OPENAI_MODEL / GEMINI_MODEL, else the
 * vendor's default; a compatible server has none. Throws an AgentloopError: `provider_not_configured`
 * (naming the key that is missing) when no provider fits, `model_not_configured` for a compatible server
 * without a model.
 */
export async function providerFromEnvironment(options: ProviderFromEnvironmentOptions = {}): Promise<LLMProvider> {
  const { model, env = process.env, ...rest } = options;
  const choice = readProviderEnvironment({ env, ...(model === undefined ? {} : { model }) });
  if (choice === undefined) throw providerNotConfigured(noProviderInEnvironment(model));
  return createChosen(choice, rest);
}

/**
 * Like providerFromEnvironment, but undefined when no variable picks a provider and `model` is no spec.
 * A configuration that is there but does not fit (a `gpt-` model with only an Anthropic key, a spec whose
 * key is missing, a compatible server without a model) still throws, rather than quietly falling back.
 * For apps and examples that fall back to something else, such as a scripted model.
 */
export async function optionalProviderFromEnvironment(
  options: ProviderFromEnvironmentOptions = {},
): Promise<LLMProvider | undefined> {
  const { model, env = process.env, ...rest } = options;
  const choice = readProviderEnvironment({ env, ...(model === undefined ? {} : { model }) });
  return choice === undefined ? undefined : createChosen(choice, rest);
}

async function createChosen(choice: ProviderChoice, options: CreateProviderOptions): Promise<LLMProvider> {
  if (choice.model === undefined) {
    throw modelNotConfigured(choice.baseURL, 'set OPENAI_MODEL, or pass the `model` option');
  }
  const spec = `${choice.kind}:${choice.model}`;
  if (choice.kind === 'anthropic') return createProvider(spec, anthropicOptions(choice, options));
  return createProvider(spec, { apiKey: choice.apiKey, baseURL: choice.baseURL, ...options });
}

/**
 * Anthropic's credential and base URL: its API key, or else its auth token as a bearer header (the SDK
 * reads only `process.env`, and the environment read may be another object). A key or an `authorization`
 * header the caller passed wins over both.
 */
function anthropicOptions(choice: ProviderChoice, options: CreateProviderOptions): CreateProviderOptions {
  const apiKey = nonBlank(options.apiKey) ?? choice.apiKey;
  const callerAuthorization = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  const bearer = apiKey === undefined && choice.authToken !== undefined && !callerAuthorization;
  return {
    baseURL: choice.baseURL,
    ...options,
    apiKey,
    ...(bearer ? { headers: { ...options.headers, authorization: `Bearer ${choice.authToken}` } } : {}),
  };
}

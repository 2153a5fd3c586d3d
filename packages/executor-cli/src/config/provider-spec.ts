import type { ModelOverrides } from '@agentloop/providers';
import {
  defaultModel,
  PROVIDER_VARIABLES,
  type ProviderChoice,
  readProviderEnvironment,
} from '@agentloop/providers/environment';
import { AgentloopError } from '@agentloop/spec';
import { checkBaseUrl } from './check-base-url.js';
import { configuredModel } from './configured-model.js';
import type { LoadedConfig } from './load-config.js';
import { modelOverrides } from './model-overrides.js';
import { splitModelReference } from './model-reference.js';
import { NoProviderError, noProviderMessage } from './no-provider-error.js';
import type { ProviderType } from './provider-types.js';
import { isProviderType } from './provider-types.js';

/** Everything needed to build a provider, resolved from flags, configuration and the environment. */
export interface ProviderSpec {
  /** The name the user knows it by: a kind, or the name of a `[providers.<name>]` table. */
  name: string;
  type: ProviderType;
  model: string;
  apiKey?: string;
  /** Where the key came from (`ANTHROPIC_API_KEY`, `config file`), for messages. */
  apiKeySource?: string;
  baseURL?: string;
  /** Headers sent with every request (the table's `headers`): how a server that wants one gets a credential. */
  headers?: Record<string, string>;
  /** The `[models."NAME"]` tables, as the providers' `models` option: what is known of models. */
  models?: ModelOverrides;
}

/** What a user asks for: on the command line, in `/model`, or nothing (configuration decides). */
export interface ProviderRequest {
  provider?: string;
  /** A model, or `provider:model`. */
  model?: string;
  baseURL?: string;
}

/** The environment variable each kind reads its key from. */
export const API_KEY_VARIABLES: Record<ProviderType, string> = {
  anthropic: PROVIDER_VARIABLES.anthropic.apiKey,
  openai: PROVIDER_VARIABLES.openai.apiKey,
  'openai-responses': PROVIDER_VARIABLES.openai.apiKey,
  google: PROVIDER_VARIABLES.google.apiKey,
};

type Environment = Record<string, string | undefined>;

/**
 * Chooses the provider and model. Precedence: the request (flags, `/model`), then the configuration, then
 * the environment, read by `readProviderEnvironment` of @agentloop/providers, so that each variable means
 * what it means to the library (the table is in that package's README): ANTHROPIC_API_KEY or
 * ANTHROPIC_AUTH_TOKEN, then OPENAI_BASE_URL (an OpenAI-compatible server), then OPENAI_API_KEY, then
 * GEMINI_API_KEY or GOOGLE_API_KEY pick the provider when nothing else does, and the provider's variables
 * fill what flags and configuration leave unset: its key, base URL and model (ANTHROPIC_MODEL,
 * OPENAI_MODEL, GEMINI_MODEL). A base URL with no provider means
 * an OpenAI-compatible server, which has no default model. Throws NoProviderError saying what to set when
 * nothing decides, or when the chosen provider has no key or model.
 */
export function resolveProviderSpec(
  request: ProviderRequest,
  config: LoadedConfig,
  environment: Environment,
  userConfigFile: string,
): ProviderSpec {
  const known = (name: string) => isProviderType(name) || name in config.providers;
  const fromRequest = splitModelReference(request.model, known);
  const fromConfig = splitModelReference(config.model, known);
  const name =
    request.provider ??
    fromRequest.provider ??
    (request.baseURL ? 'openai' : undefined) ??
    config.provider ??
    fromConfig.provider ??
    providerFromEnvironment(environment, fromRequest.model ?? fromConfig.model) ??
    soleConfiguredProvider(config);
  if (name === undefined) throw new NoProviderError(noProviderMessage(userConfigFile));

  const entry = config.providers[name] ?? {};
  const type = entry.type ?? (isProviderType(name) ? name : undefined);
  if (type === undefined) {
    throw new NoProviderError(
      `Unknown provider "${name}". Use anthropic, openai, openai-responses or google, or add a [providers.${name}] table with a type to your configuration.`,
    );
  }
  const variables = environmentOf(type, environment);
  const baseURL = request.baseURL ?? entry.base_url ?? variables.baseURL;
  const keyVariable = entry.api_key_env ?? API_KEY_VARIABLES[type];
  if (baseURL !== undefined) checkBaseUrl(baseURL, { provider: name, keyVariable });
  const model =
    fromRequest.model ??
    configuredModel(config, name, (reference) => splitModelReference(reference, known)) ??
    (variables.modelSource === 'default' ? undefined : variables.model) ??
    // None for a server other than the vendor's: it serves models of its own, and a guess fails as a 404.
    defaultModel(type, baseURL);
  if (model === undefined) {
    const models =
      baseURL === undefined ? '' : ` (the server lists its models at ${baseURL.replace(/\/+$/, '')}/models)`;
    throw new NoProviderError(
      `No model is set for the server at ${baseURL}: name one with --model (e.g. --model llama3.2), model = "..." in the configuration, or ${PROVIDER_VARIABLES.openai.model}${models}.`,
    );
  }

  const apiKey =
    entry.api_key ?? (entry.api_key_env === undefined ? variables.apiKey : nonBlank(environment[entry.api_key_env]));
  // Anthropic's bearer token (ANTHROPIC_AUTH_TOKEN) stands in for a key, unless the table says otherwise.
  const token =
    apiKey === undefined && entry.api_key_env === undefined && !hasCredentialHeader(entry.headers)
      ? variables.authToken
      : undefined;
  const apiKeySource = entry.api_key
    ? 'the configuration file'
    : apiKey
      ? // Google's key may come from its second variable (GOOGLE_API_KEY): name the one it came from.
        (entry.api_key_env ?? variables.credentialSource ?? keyVariable)
      : token
        ? PROVIDER_VARIABLES.anthropic.authToken
        : undefined;
  const headers = token === undefined ? entry.headers : { ...entry.headers, authorization: `Bearer ${token}` };
  // A local OpenAI-compatible server needs no key; the vendors' own APIs do, unless a header carries one.
  if (apiKey === undefined && !(type.startsWith('openai') && baseURL) && !hasCredentialHeader(headers)) {
    const variable =
      type === 'google' && entry.api_key_env === undefined
        ? `${keyVariable} (or ${PROVIDER_VARIABLES.google.fallbackApiKey})`
        : keyVariable;
    throw new NoProviderError(
      `The ${name} provider needs an API key: set ${variable}, or api_key in [providers.${name}] of the configuration.`,
    );
  }
  return {
    name,
    type,
    model,
    ...(apiKey ? { apiKey, apiKeySource } : token ? { apiKeySource } : {}),
    ...(baseURL ? { baseURL } : {}),
    ...(headers ? { headers } : {}),
    ...(config.models ? { models: modelOverrides(config.models) } : {}),
  };
}

/**
 * The provider the environment picks when neither flags nor configuration name one (see
 * readProviderEnvironment): `anthropic`, `google` or `openai` (an OpenAI-compatible server is an `openai`
 * provider with the environment's base URL). A model of one vendor for which only the other's key is set is a
 * NoProviderError naming the key to set.
 */
function providerFromEnvironment(environment: Environment, model: string | undefined): ProviderType | undefined {
  let choice: ProviderChoice | undefined;
  try {
    choice = readProviderEnvironment({ env: environment, ...(model === undefined ? {} : { model }) });
  } catch (error) {
    if (AgentloopError.isInstance(error)) throw new NoProviderError(error.message);
    throw error;
  }
  if (choice === undefined) return undefined;
  return choice.kind === 'anthropic' || choice.kind === 'google' ? choice.kind : 'openai';
}

/** The environment's variables for a provider type: its key, Anthropic's token, base URL and model. */
function environmentOf(type: ProviderType, environment: Environment): ProviderChoice {
  return readProviderEnvironment({ env: environment, kind: type }) ?? { kind: type, model: undefined };
}

/** A variable's value as the SDKs read it: blank is unset. */
function nonBlank(value: string | undefined): string | undefined {
  return value?.trim() || undefined;
}

function hasCredentialHeader(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => /^(?:authorization|x-api-key|api-key)$/i.test(name));
}

function soleConfiguredProvider(config: LoadedConfig): string | undefined {
  const names = Object.keys(config.providers);
  return names.length === 1 ? names[0] : undefined;
}

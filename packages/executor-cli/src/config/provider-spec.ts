import { checkBaseUrl } from './check-base-url.js';
import { configuredModel } from './configured-model.js';
import type { LoadedConfig } from './load-config.js';
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
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  'openai-responses': 'OPENAI_API_KEY',
};

/** The environment variable each kind's SDK reads its base URL from. */
const BASE_URL_VARIABLES: Record<ProviderType, string> = {
  anthropic: 'ANTHROPIC_BASE_URL',
  openai: 'OPENAI_BASE_URL',
  'openai-responses': 'OPENAI_BASE_URL',
};

const DEFAULT_MODELS: Record<ProviderType, string> = {
  anthropic: 'claude-sonnet-4-6',
  openai: 'gpt-5-mini',
  'openai-responses': 'gpt-5-mini',
};

type Environment = Record<string, string | undefined>;

/**
 * Chooses the provider and model. Precedence: the request (flags, `/model`), then the configuration, then
 * the environment (`ANTHROPIC_API_KEY`, then `OPENAI_API_KEY`). A base URL with no provider means an
 * OpenAI-compatible server. Throws NoProviderError saying what to set when nothing decides, or when the
 * chosen provider has no key or model.
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
    (environment.ANTHROPIC_API_KEY ? 'anthropic' : environment.OPENAI_API_KEY ? 'openai' : undefined) ??
    soleConfiguredProvider(config);
  if (name === undefined) throw new NoProviderError(noProviderMessage(userConfigFile));

  const entry = config.providers[name] ?? {};
  const type = entry.type ?? (isProviderType(name) ? name : undefined);
  if (type === undefined) {
    throw new NoProviderError(
      `Unknown provider "${name}". Use anthropic, openai or openai-responses, or add a [providers.${name}] table with a type to your configuration.`,
    );
  }
  const baseURL = request.baseURL ?? entry.base_url ?? environment[BASE_URL_VARIABLES[type]];
  const keyVariable = entry.api_key_env ?? API_KEY_VARIABLES[type];
  if (baseURL !== undefined) checkBaseUrl(baseURL, { provider: name, keyVariable });
  // A server the user names is likely not the vendor's, so the vendor's default model would be a guess; a
  // base URL exported in the environment is usually a proxy of the vendor's API, and an Anthropic base URL
  // can only be one.
  const ownServer = request.baseURL !== undefined || (type !== 'anthropic' && entry.base_url !== undefined);
  const model =
    fromRequest.model ??
    configuredModel(config, name, (reference) => splitModelReference(reference, known)) ??
    (ownServer ? undefined : DEFAULT_MODELS[type]);
  if (model === undefined) {
    throw new NoProviderError(
      `No model is set for the server at ${baseURL}. Name one with --model (e.g. --model llama3.2) or model = "..." in the configuration.`,
    );
  }

  const apiKey = entry.api_key ?? environment[keyVariable];
  const apiKeySource = entry.api_key ? 'the configuration file' : environment[keyVariable] ? keyVariable : undefined;
  // A local OpenAI-compatible server needs no key; the vendors' own APIs do, unless a header carries one.
  if (apiKey === undefined && !(type !== 'anthropic' && baseURL) && !hasCredentialHeader(entry.headers)) {
    throw new NoProviderError(
      `The ${name} provider needs an API key: set ${keyVariable}, or api_key in [providers.${name}] of the configuration.`,
    );
  }
  return {
    name,
    type,
    model,
    ...(apiKey ? { apiKey, apiKeySource } : {}),
    ...(baseURL ? { baseURL } : {}),
    ...(entry.headers ? { headers: entry.headers } : {}),
  };
}

function hasCredentialHeader(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => /^(?:authorization|x-api-key|api-key)$/i.test(name));
}

/**
 * Splits `provider:model` when the part before the first colon names a provider; otherwise the whole
 * text is the model (Ollama model names such as `llama3.2:3b` have colons of their own).
 */
export function splitModelReference(
  reference: string | undefined,
  isProvider: (name: string) => boolean,
): { provider?: string; model?: string } {
  if (reference === undefined) return {};
  const colon = reference.indexOf(':');
  if (colon > 0 && isProvider(reference.slice(0, colon))) {
    const model = reference.slice(colon + 1);
    return { provider: reference.slice(0, colon), ...(model ? { model } : {}) };
  }
  return { model: reference };
}

/** `name:model`, as the user writes it in `/model`. */
export function formatProviderSpec(spec: Pick<ProviderSpec, 'name' | 'model'>): string {
  return `${spec.name}:${spec.model}`;
}

function soleConfiguredProvider(config: LoadedConfig): string | undefined {
  const names = Object.keys(config.providers);
  return names.length === 1 ? names[0] : undefined;
}

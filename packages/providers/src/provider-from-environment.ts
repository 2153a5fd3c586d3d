import { AgentloopError, type LLMProvider } from '@agentloop/spec';
import { type CreateProviderOptions, createProvider } from './create-provider.js';
import { nonBlank } from './environment/index.js';
import { providerNotConfigured } from './errors/index.js';

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
const ANTHROPIC_MODEL = /^claude-/i;
// GPT, the o-series reasoning models, ChatGPT's and Codex's models, and fine-tunes of them (`ft:gpt-4o-…`).
const OPENAI_MODEL = /^(?:ft:)?(?:gpt-|chatgpt-|codex-|o[134](?:-|$))/i;

/** A vendor whose models can be told by their ids alone. */
type ModelVendor = 'anthropic' | 'openai';

/**
 * Picks a provider from the environment: a spec in `model` decides; otherwise `ANTHROPIC_API_KEY` (or
 * `ANTHROPIC_AUTH_TOKEN`, a bearer token) means Anthropic, `OPENAI_BASE_URL` (other than OpenAI's) an
 * OpenAI-compatible server (the model from `model` or `OPENAI_MODEL`), and `OPENAI_API_KEY` OpenAI. A bare `model` that names one vendor's model
 * (`claude-…`; `gpt-…`, `o3`, `chatgpt-…`, `codex-…`) rules out the other vendor's API, so `gpt-4o` with
 * both keys set goes to OpenAI; an OpenAI-compatible server may still serve either (a gateway, `gpt-oss`
 * on Ollama). Throws an AgentloopError (`provider_not_configured`, naming the key that is missing;
 * `model_not_configured` for a local server without a model) when no provider fits.
 */
export async function providerFromEnvironment(options: ProviderFromEnvironmentOptions = {}): Promise<LLMProvider> {
  const { model, env = process.env, ...rest } = options;
  const anthropicKey = env.ANTHROPIC_API_KEY;
  const anthropicToken = env.ANTHROPIC_AUTH_TOKEN;
  const openaiKey = env.OPENAI_API_KEY;
  const baseURL = env.OPENAI_BASE_URL;
  if (model !== undefined && SPEC.test(model)) {
    if (model.startsWith('anthropic:')) return createProvider(model, anthropicOptions(env, rest));
    return createProvider(model, { apiKey: openaiKey, baseURL, ...rest });
  }
  const vendor = model === undefined ? undefined : modelVendor(model);
  if ((nonBlank(anthropicKey) || nonBlank(anthropicToken)) && vendor !== 'openai') {
    return createProvider(`anthropic:${model ?? DEFAULT_ANTHROPIC_MODEL}`, anthropicOptions(env, rest));
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
  if (openaiKey && vendor !== 'anthropic') {
    return createProvider(`openai:${model ?? env.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL}`, {
      apiKey: openaiKey,
      baseURL,
      ...rest,
    });
  }
  throw providerNotConfigured(notConfiguredMessage(model, vendor));
}

/**
 * Anthropic's credential and base URL from `env`: its API key, or else its auth token as a bearer header
 * (the SDK reads only `process.env`, and `env` may be another object). A key or an `authorization` header
 * the caller passed wins over both.
 */
function anthropicOptions(
  env: NonNullable<ProviderFromEnvironmentOptions['env']>,
  options: CreateProviderOptions,
): CreateProviderOptions {
  const apiKey = nonBlank(options.apiKey) ?? nonBlank(env.ANTHROPIC_API_KEY);
  const token = nonBlank(env.ANTHROPIC_AUTH_TOKEN);
  const callerAuthorization = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  const bearer = apiKey === undefined && token !== undefined && !callerAuthorization;
  return {
    baseURL: env.ANTHROPIC_BASE_URL,
    ...options,
    apiKey,
    ...(bearer ? { headers: { ...options.headers, authorization: `Bearer ${token}` } } : {}),
  };
}

/** The vendor a bare model id clearly belongs to; undefined for any other name (`llama3.1:8b`, `openai/gpt-4o`). */
function modelVendor(model: string): ModelVendor | undefined {
  if (ANTHROPIC_MODEL.test(model)) return 'anthropic';
  if (OPENAI_MODEL.test(model)) return 'openai';
  return undefined;
}

/** What to set: the key of the vendor the model belongs to, or any provider at all. */
function notConfiguredMessage(model: string | undefined, vendor: ModelVendor | undefined): string {
  if (vendor === 'anthropic')
    return `"${model}" is an Anthropic model: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN).`;
  if (vendor === 'openai') {
    return `"${model}" is an OpenAI model: set OPENAI_API_KEY (or OPENAI_BASE_URL, for an OpenAI-compatible server that serves it).`;
  }
  return 'No model provider is configured: set ANTHROPIC_API_KEY, OPENAI_API_KEY, or OPENAI_BASE_URL for a local server.';
}

/**
 * Like providerFromEnvironment, but undefined when nothing is configured: no provider spec in `model` and
 * none of ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, OPENAI_API_KEY, OPENAI_BASE_URL. A configuration that
 * is there but does not fit (a `gpt-` model with only an Anthropic key, a spec whose key is missing) still
 * throws, rather than quietly falling back. For apps and examples that fall back to something else, such as a scripted model.
 */
export async function optionalProviderFromEnvironment(
  options: ProviderFromEnvironmentOptions = {},
): Promise<LLMProvider | undefined> {
  const env = options.env ?? process.env;
  const spec = options.model !== undefined && SPEC.test(options.model);
  const configured = [env.ANTHROPIC_API_KEY, env.ANTHROPIC_AUTH_TOKEN, env.OPENAI_API_KEY, env.OPENAI_BASE_URL];
  if (!spec && !configured.some(Boolean)) return undefined;
  return providerFromEnvironment(options);
}

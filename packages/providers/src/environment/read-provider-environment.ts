import type { ProviderKind } from '../create-provider.js';
// The file, not the folder's index: this module is the light `./environment` entry's, and the errors'
// index loads their whole mapping.
import { providerNotConfigured } from '../errors/provider-not-configured.js';
import { defaultModel, isOpenAIBaseURL } from './default-model.js';
import { nonBlank } from './non-blank.js';

/** An environment to read: `process.env` or a record like it. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The variables agentloop reads, by vendor: the key, token and base URL the vendors' SDKs read, and the
 * model variable that Claude Code (`ANTHROPIC_MODEL`), OpenAI-compatible tools (`OPENAI_MODEL`) and
 * Gemini CLI (`GEMINI_MODEL`) read. Google's key is `GEMINI_API_KEY`, else `GOOGLE_API_KEY`.
 */
export const PROVIDER_VARIABLES = {
  anthropic: {
    apiKey: 'ANTHROPIC_API_KEY',
    authToken: 'ANTHROPIC_AUTH_TOKEN',
    baseURL: 'ANTHROPIC_BASE_URL',
    model: 'ANTHROPIC_MODEL',
  },
  openai: { apiKey: 'OPENAI_API_KEY', baseURL: 'OPENAI_BASE_URL', model: 'OPENAI_MODEL' },
  google: {
    apiKey: 'GEMINI_API_KEY',
    fallbackApiKey: 'GOOGLE_API_KEY',
    baseURL: 'GOOGLE_GEMINI_BASE_URL',
    model: 'GEMINI_MODEL',
  },
} as const;

/** A provider as the environment describes it. */
export interface ProviderChoice {
  /** The provider kind; `openai-compatible` when OPENAI_BASE_URL names a server other than OpenAI's. */
  kind: ProviderKind;
  /**
   * The model: the caller's, else the kind's model variable, else the default (see defaultModel).
   * Undefined for an OpenAI-compatible server that nothing names a model for.
   */
  model: string | undefined;
  /** Where the model came from: `model` (the caller's), `ANTHROPIC_MODEL`, `OPENAI_MODEL`, `GEMINI_MODEL` or `default`. */
  modelSource?: 'model' | 'ANTHROPIC_MODEL' | 'OPENAI_MODEL' | 'GEMINI_MODEL' | 'default';
  /** ANTHROPIC_BASE_URL, OPENAI_BASE_URL or GOOGLE_GEMINI_BASE_URL. */
  baseURL?: string;
  /** ANTHROPIC_API_KEY, OPENAI_API_KEY, or GEMINI_API_KEY (else GOOGLE_API_KEY). */
  apiKey?: string;
  /** ANTHROPIC_AUTH_TOKEN: Anthropic's bearer token, for use when there is no API key. */
  authToken?: string;
  /**
   * The variable the credential came from, for messages: `ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`,
   * `OPENAI_API_KEY`, `GEMINI_API_KEY`, `GOOGLE_API_KEY`.
   */
  credentialSource?:
    | 'ANTHROPIC_API_KEY'
    | 'ANTHROPIC_AUTH_TOKEN'
    | 'OPENAI_API_KEY'
    | 'GEMINI_API_KEY'
    | 'GOOGLE_API_KEY';
}

/** Options of readProviderEnvironment. */
export interface ReadProviderEnvironmentOptions {
  /** The environment to read; defaults to `process.env`. */
  env?: Environment;
  /** A model id, or a spec (`openai:gpt-4o`) that also picks the kind. */
  model?: string;
  /** A kind the caller has chosen already (a command-line flag): only its variables are read. */
  kind?: ProviderKind;
}

const SPEC = /^(anthropic|openai|openai-responses|openai-compatible|google):(.+)$/s;
const ANTHROPIC_MODEL = /^claude-/i;
// GPT, the o-series reasoning models, ChatGPT's and Codex's models, and fine-tunes of them (`ft:gpt-4o-…`).
const OPENAI_MODEL = /^(?:ft:)?(?:gpt-|chatgpt-|codex-|o[134](?:-|$))/i;
// Gemini, and Gemma as Google's API serves it.
const GOOGLE_MODEL = /^(?:models\/)?(?:gemini-|gemma-)/i;

/**
 * Reads the environment into a provider choice, the one reading the library (providerFromEnvironment)
 * and the `agentloop` command share, so that a variable means the same everywhere. Blank values count as
 * unset, as the SDKs read them. The kind is the caller's `kind`, else the spec in `model`, else the first
 * of:
 *
 * 1. `ANTHROPIC_API_KEY` or `ANTHROPIC_AUTH_TOKEN` → `anthropic`;
 * 2. `OPENAI_BASE_URL`, other than OpenAI's own → `openai-compatible` (a key is optional);
 * 3. `OPENAI_API_KEY` → `openai`;
 * 4. `GEMINI_API_KEY` or `GOOGLE_API_KEY` → `google`.
 *
 * A bare `model` that names one vendor's model (`claude-…`; `gpt-…`, `o3`, `chatgpt-…`, `codex-…`;
 * `gemini-…`, `gemma-…`) rules out the other vendors' APIs, so `gpt-4o` with both keys set goes to OpenAI
 * and `gemini-2.5-flash` to Google; an OpenAI-compatible server may still serve any (a gateway, `gpt-oss`
 * on Ollama). A model variable names the model only: it
 * never picks the kind.
 *
 * Undefined when no variable picks a provider. Throws an AgentloopError (`provider_not_configured`) when
 * some do but none fits the model's vendor (a `gpt-` model with only an Anthropic key).
 */
export function readProviderEnvironment(options: ReadProviderEnvironmentOptions = {}): ProviderChoice | undefined {
  const env = options.env ?? process.env;
  const spec = options.model === undefined ? undefined : SPEC.exec(options.model);
  const model = spec ? spec[2] : nonBlank(options.model);
  const kind = options.kind ?? (spec?.[1] as ProviderKind | undefined) ?? chooseKind(env, model);
  return kind === undefined ? undefined : readKind(kind, env, model);
}

/** The kind the variables pick for a model (see readProviderEnvironment). */
function chooseKind(env: Environment, model: string | undefined): ProviderKind | undefined {
  const vendor = model === undefined ? undefined : modelVendor(model);
  const anthropic = nonBlank(env.ANTHROPIC_API_KEY) ?? nonBlank(env.ANTHROPIC_AUTH_TOKEN);
  const openaiKey = nonBlank(env.OPENAI_API_KEY);
  const googleKey = nonBlank(env.GEMINI_API_KEY) ?? nonBlank(env.GOOGLE_API_KEY);
  const baseURL = nonBlank(env.OPENAI_BASE_URL);
  if (anthropic !== undefined && (vendor === undefined || vendor === 'anthropic')) return 'anthropic';
  if (!isOpenAIBaseURL(baseURL)) return 'openai-compatible';
  if (openaiKey !== undefined && (vendor === undefined || vendor === 'openai')) return 'openai';
  if (googleKey !== undefined && (vendor === undefined || vendor === 'google')) return 'google';
  if (anthropic !== undefined || openaiKey !== undefined || googleKey !== undefined) {
    throw providerNotConfigured(wrongVendor(model, vendor));
  }
  return undefined;
}

/** The variables of one kind, the model filled in. */
function readKind(kind: ProviderKind, env: Environment, model: string | undefined): ProviderChoice {
  if (kind === 'anthropic') {
    const variables = PROVIDER_VARIABLES.anthropic;
    const apiKey = nonBlank(env[variables.apiKey]);
    const authToken = nonBlank(env[variables.authToken]);
    const baseURL = nonBlank(env[variables.baseURL]);
    return {
      kind,
      ...pickModel(kind, model, nonBlank(env[variables.model]), variables.model, baseURL),
      ...(baseURL === undefined ? {} : { baseURL }),
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(authToken === undefined ? {} : { authToken }),
      ...(apiKey !== undefined
        ? { credentialSource: variables.apiKey }
        : authToken !== undefined
          ? { credentialSource: variables.authToken }
          : {}),
    };
  }
  if (kind === 'google') return readGoogle(env, model);
  const variables = PROVIDER_VARIABLES.openai;
  const apiKey = nonBlank(env[variables.apiKey]);
  const baseURL = nonBlank(env[variables.baseURL]);
  return {
    kind,
    ...pickModel(kind, model, nonBlank(env[variables.model]), variables.model, baseURL),
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(apiKey === undefined ? {} : { apiKey, credentialSource: variables.apiKey }),
  };
}

/** Google's variables: GEMINI_API_KEY wins over GOOGLE_API_KEY (Google's SDK would take the other). */
function readGoogle(env: Environment, model: string | undefined): ProviderChoice {
  const variables = PROVIDER_VARIABLES.google;
  const geminiKey = nonBlank(env[variables.apiKey]);
  const googleKey = nonBlank(env[variables.fallbackApiKey]);
  const baseURL = nonBlank(env[variables.baseURL]);
  return {
    kind: 'google',
    ...pickModel('google', model, nonBlank(env[variables.model]), variables.model, baseURL),
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(geminiKey !== undefined
      ? { apiKey: geminiKey, credentialSource: variables.apiKey }
      : googleKey !== undefined
        ? { apiKey: googleKey, credentialSource: variables.fallbackApiKey }
        : {}),
  };
}

function pickModel(
  kind: ProviderKind,
  given: string | undefined,
  fromVariable: string | undefined,
  variable: 'ANTHROPIC_MODEL' | 'OPENAI_MODEL' | 'GEMINI_MODEL',
  baseURL: string | undefined,
): Pick<ProviderChoice, 'model' | 'modelSource'> {
  if (given !== undefined) return { model: given, modelSource: 'model' };
  if (fromVariable !== undefined) return { model: fromVariable, modelSource: variable };
  const fallback = defaultModel(kind, baseURL);
  return fallback === undefined ? { model: undefined } : { model: fallback, modelSource: 'default' };
}

/** The vendor a bare model id clearly belongs to; undefined for any other name (`llama3.1:8b`, `openai/gpt-4o`). */
function modelVendor(model: string): Vendor | undefined {
  if (ANTHROPIC_MODEL.test(model)) return 'anthropic';
  if (OPENAI_MODEL.test(model)) return 'openai';
  if (GOOGLE_MODEL.test(model)) return 'google';
  return undefined;
}

type Vendor = 'anthropic' | 'openai' | 'google';

/** What to set for a model whose vendor has no key (the only case chooseKind throws for). */
function wrongVendor(model: string | undefined, vendor: Vendor | undefined): string {
  if (vendor === 'anthropic')
    return `"${model}" is an Anthropic model: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN).`;
  if (vendor === 'google') return `"${model}" is a Google model: set GEMINI_API_KEY (or GOOGLE_API_KEY).`;
  return `"${model}" is an OpenAI model: set OPENAI_API_KEY (or OPENAI_BASE_URL, for an OpenAI-compatible server that serves it).`;
}

/** What to say when no variable picks a provider, naming the key of the model's vendor when it has one. */
export function noProviderInEnvironment(model?: string): string {
  const bare = model === undefined || SPEC.test(model) ? undefined : model;
  const vendor = bare === undefined ? undefined : modelVendor(bare);
  if (vendor !== undefined) return wrongVendor(bare, vendor);
  return 'No model provider is configured: set ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, or OPENAI_BASE_URL and OPENAI_MODEL for an OpenAI-compatible server (see the table of environment variables in the README of @agentloop/providers).';
}

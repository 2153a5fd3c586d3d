import type { ProviderKind } from '../create-provider.js';

/** The model used when Anthropic is chosen and nothing names a model. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-6';
/** The model used when OpenAI's own API is chosen and nothing names a model. */
export const DEFAULT_OPENAI_MODEL = 'gpt-5-mini';

/** The model used when Google's Gemini API is chosen and nothing names a model. */
export const DEFAULT_GOOGLE_MODEL = 'gemini-2.5-flash';

const OPENAI_HOST = /^https:\/\/api\.openai\.com(?:\/|$)/;

/** True when a base URL is OpenAI's own API; unset means OpenAI's too. */
export function isOpenAIBaseURL(baseURL: string | undefined): boolean {
  return baseURL === undefined || OPENAI_HOST.test(baseURL);
}

/**
 * The model to use when nothing names one, or undefined where a default would be a guess. Anthropic and
 * Google get their default whatever the base URL: a server that speaks Anthropic's API is a proxy or gateway of it.
 * OpenAI's own API gets its default; another server (Ollama, vLLM, a gateway) serves models of its own,
 * where OpenAI's default would fail only at the first request, as a 404.
 */
export function defaultModel(kind: ProviderKind, baseURL?: string): string | undefined {
  if (kind === 'anthropic') return DEFAULT_ANTHROPIC_MODEL;
  if (kind === 'google') return DEFAULT_GOOGLE_MODEL;
  if (kind === 'openai-compatible' || !isOpenAIBaseURL(baseURL)) return undefined;
  return DEFAULT_OPENAI_MODEL;
}

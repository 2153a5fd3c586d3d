/** The kinds of provider the CLI can build. */
export const PROVIDER_TYPES = ['anthropic', 'openai', 'openai-responses', 'google'] as const;

/** A provider kind: Anthropic, OpenAI Chat Completions (and compatible servers), OpenAI Responses, or Google Gemini. */
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** True when the name is a provider kind (and so needs no `type` in its table). */
export function isProviderType(name: string): name is ProviderType {
  return (PROVIDER_TYPES as readonly string[]).includes(name);
}

/** Counts the tokens of a text exactly, as one model family's tokenizer does. */
export interface Tokenizer {
  countTokens(text: string): number;
}

// The API reads `<|endoftext|>` in a message as plain text; gpt-tokenizer would throw on it by default.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** The byte-pair encodings gpt-tokenizer has for OpenAI's model families. */
type OpenAIEncoding = 'o200k_base' | 'cl100k_base';

/**
 * The OpenAI encoding of a model id, or undefined for a model of another vendor. gpt-4o and later
 * (gpt-4.1, gpt-5, the o-series, gpt-oss) use o200k_base; gpt-4 and gpt-3.5 cl100k_base. A router
 * prefix (`openai/`) is ignored.
 */
export function openAIEncodingOf(modelId: string): OpenAIEncoding | undefined {
  const name = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  if (/^(?:gpt-4o|gpt-4\.[1-9]|gpt-[5-9]|o[1-9]|chatgpt-|codex-|gpt-oss)/.test(name)) return 'o200k_base';
  if (/^(?:gpt-4|gpt-3\.5)/.test(name)) return 'cl100k_base';
  return undefined;
}

/**
 * The exact tokenizer of `modelId`'s family, or undefined when there is none (Anthropic publishes no
 * tokenizer for its current models). gpt-tokenizer's tables take about 20 MB and a quarter of a second to
 * load, so a module is imported only here, on first need, never at start-up.
 */
export async function loadTokenizer(modelId: string): Promise<Tokenizer | undefined> {
  switch (openAIEncodingOf(modelId)) {
    case 'o200k_base': {
      const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
      return { countTokens: (text) => countTokens(text, PLAIN_TEXT) };
    }
    case 'cl100k_base': {
      const { countTokens } = await import('gpt-tokenizer/encoding/cl100k_base');
      return { countTokens: (text) => countTokens(text, PLAIN_TEXT) };
    }
    default:
      return undefined;
  }
}

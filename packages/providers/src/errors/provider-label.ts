/** What a message says about where a request went: the provider's id, and the model and server when known. */
export interface ErrorSource {
  /** The provider's id: `anthropic`, `openai`, `openai-compatible`, `google`. */
  provider: string;
  /** The model asked for: a 404 names it. */
  model?: string;
  /** The base URL the request went to: a server other than the vendor's is named by it. */
  baseURL?: string;
  /** True when no API key was sent (an OpenAI-compatible server needs none): a 401 then says how to give one. */
  keyless?: boolean;
}

const VENDORS: Readonly<Record<string, { name: string; host: RegExp }>> = {
  anthropic: { name: 'Anthropic', host: /^https:\/\/api\.anthropic\.com(?:\/|$)/ },
  openai: { name: 'OpenAI', host: /^https:\/\/api\.openai\.com(?:\/|$)/ },
  google: { name: 'Gemini', host: /^https:\/\/generativelanguage\.googleapis\.com(?:\/|$)/ },
};

/**
 * How a message names a provider: the vendor's own name (`Anthropic`, `OpenAI`, `Gemini`) for its own API, or the
 * server at its URL (`the server at http://127.0.0.1:11434/v1`) for an OpenAI-compatible server, a proxy
 * or a gateway, whose vendor is unknown and whose URL is what the user set. Another id is kept as it is.
 */
export function providerLabel(source: string | ErrorSource): string {
  const { provider, baseURL } = typeof source === 'string' ? { provider: source, baseURL: undefined } : source;
  const vendor = VENDORS[provider];
  if (vendor && (baseURL === undefined || vendor.host.test(baseURL))) return vendor.name;
  if (baseURL !== undefined) return serverAt(baseURL);
  return provider === 'openai-compatible' ? 'the OpenAI-compatible server' : provider;
}

/**
 * `the server at <URL>`, the URL shown without its user name and password, query and fragment, which
 * may hold credentials; a text that is not an http(s) URL is shown only when it has no `@` (then it has
 * no user-info to leak).
 */
export function serverAt(baseURL: string): string {
  return `the server at ${shownURL(baseURL) ?? 'the given URL'}`;
}

/** The URL without credentials, query and fragment, or undefined when it cannot be shown safely. */
export function shownURL(baseURL: string): string | undefined {
  const url = URL.canParse(baseURL) ? new URL(baseURL) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return baseURL.includes('@') ? undefined : baseURL;
  return `${url.protocol}//${url.host}${url.pathname === '/' && !baseURL.endsWith('/') ? '' : url.pathname}`;
}

/** The text with its first letter in capitals, for a label that starts a sentence. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * How a message names a provider: the vendor's own name (`Anthropic`, `OpenAI`), or for an
 * OpenAI-compatible server the server and its URL (`the server at http://127.0.0.1:11434/v1`), since its
 * vendor is unknown and the URL is what the user set. Any other id is kept as it is.
 */
export function providerLabel(provider: string, baseURL?: string): string {
  if (provider === 'anthropic') return 'Anthropic';
  if (provider === 'openai') return 'OpenAI';
  if (provider === 'openai-compatible')
    return baseURL === undefined ? 'the OpenAI-compatible server' : serverAt(baseURL);
  return provider;
}

/**
 * `the server at <URL>`, the URL shown without its user name and password, query and fragment, which
 * may hold credentials; a text that is not a URL is shown only when it has no `@` (nothing to hide).
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

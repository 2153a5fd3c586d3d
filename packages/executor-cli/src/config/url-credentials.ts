/** True when a URL carries a user name or password (`http://user:password@host/v1`). */
export function hasUrlCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

/**
 * A URL as it may be shown in a message: parsed by the WHATWG parser (the one fetch uses) and rebuilt
 * without its user name and password, or undefined when it cannot be parsed. Rebuilding rather than
 * redacting the text is what makes it safe: the parser decides where the user-info ends, whatever it
 * holds (white space, quotes, backslashes), and only what the parser kept as host and path is shown.
 */
export function urlWithoutCredentials(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

/** Where a credential goes instead of a URL: the provider table (`providers.<name>`) a message names. */
export interface CredentialAdviceTarget {
  /** The provider table's name, e.g. `openai`; absent in a configuration file, where the table is named already. */
  provider?: string;
  /** The environment variable read for the API key, e.g. `OPENAI_API_KEY`. */
  keyVariable?: string;
}

/**
 * How to give a server a credential instead of writing it into the base URL, where fetch refuses it and
 * every error and log line would show it: the provider table's `headers` (basic auth) or `api_key`, the
 * two ways the CLI sends one.
 */
export function urlCredentialsAdvice(target: CredentialAdviceTarget = {}): string {
  const table = target.provider === undefined ? "the provider's table" : `[providers.${target.provider}]`;
  const variable = target.keyVariable === undefined ? '' : ` or in the ${target.keyVariable} environment variable`;
  return `give the credential as a header in ${table} of the user configuration instead (\`agentloop config path\` shows where it is), e.g. headers = { Authorization = "Basic <base64 of user:password>" }, or an API key as api_key = "..." there${variable}, and leave it out of the URL`;
}

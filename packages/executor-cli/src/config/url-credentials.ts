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
 * How to give a server a credential instead of writing it into the base URL, where fetch refuses it and
 * every error and log line would show it.
 */
export const URL_CREDENTIALS_ADVICE =
  'give the credential as a header in the provider\'s table of the user configuration instead, e.g. headers = { Authorization = "Basic <base64 of user:password>" } (or api_key = "..." for a bearer key), and leave it out of the URL';

import { CliError } from '../errors/index.js';
import type { CredentialAdviceTarget } from './url-credentials.js';
import { urlCredentialsAdvice, urlWithoutCredentials } from './url-credentials.js';

/**
 * Throws an `invalid_base_url` CliError unless a base URL (from `--base-url`, `base_url` or the
 * environment) is an http(s) URL without a user name or password. The message never holds the text as
 * given when it may carry a credential: a URL with one is shown as the parser rebuilds it without it, and
 * one that cannot be parsed is shown only when it has no `@` (then it has no user-info to leak). The
 * redaction of free text is a pattern, which a password with a space, a quote or a backslash in it has
 * beaten before; the parser is not guessing.
 */
export function checkBaseUrl(baseURL: string, target: CredentialAdviceTarget): void {
  const shown = urlWithoutCredentials(baseURL);
  if (shown === undefined) {
    const given = baseURL.includes('@') ? '' : ` ${JSON.stringify(baseURL)}`;
    const hidden = given === '' ? ' (not shown: it has an @ in it, so it may hold a password)' : '';
    throw new CliError(
      `The base URL${given} is not a valid URL${hidden}. Give it whole, e.g. http://localhost:11434/v1; a credential does not go in it: ${urlCredentialsAdvice(target)}.`,
      { code: 'invalid_base_url' },
    );
  }
  const url = new URL(baseURL);
  if (url.username !== '' || url.password !== '') {
    throw new CliError(
      `The base URL ${shown} was given with a user name or password in it (not shown), which is never sent (fetch refuses such a URL) and would be shown in errors and logs; ${urlCredentialsAdvice(target)}.`,
      { code: 'invalid_base_url' },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(
      `The base URL ${shown} is not an http:// or https:// URL. Give it whole, e.g. http://localhost:11434/v1.`,
      { code: 'invalid_base_url' },
    );
  }
}

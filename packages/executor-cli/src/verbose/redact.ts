/** Replaces secrets in text. */
export type Redactor = (text: string) => string;

// Key shapes of the common vendors and auth headers, for keys the CLI was not told about.
const KEY_PATTERNS: readonly RegExp[] = [
  /\bsk-ant-[A-Za-z0-9_-]{8,}/g,
  /\bsk-(?:proj-)?[A-Za-z0-9_-]{16,}/g,
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b((?:x-api-key|api[_-]?key|authorization)["']?\s*[:=]\s*["']?)[^\s"',}]{8,}/gi,
];

const SECRET_VARIABLE = /(?:KEY|TOKEN|SECRET|PASSWORD)$/i;

// The user-info of a URL: after `scheme://`, everything up to the last `@` before the host ends (a
// password may hold an `@` of its own). A quote, a backslash or white space ends it, as in JSON or prose.
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>\\]*@/gi;

/**
 * Text with the user name and password of every URL in it replaced: `http://user:pw@host/v1` becomes
 * `http://***@host/v1`. Every URL the CLI shows passes through it (error lines, `--json` lines, the
 * verbose log), wherever the URL came from: an option, a configuration file, a server's message.
 */
export function redactUrlCredentials(text: string): string {
  return text.replace(URL_USER_INFO, '$1***@');
}

/**
 * A function that replaces the given secrets (and anything shaped like an API key) with `[REDACTED]`, and
 * the user-info of URLs with `***` (see redactUrlCredentials).
 * Secrets shorter than 8 characters are ignored: replacing them would mangle ordinary text.
 */
export function createRedactor(secrets: Iterable<string | undefined>): Redactor {
  const known = [
    ...new Set([...secrets].filter((secret): secret is string => secret !== undefined && secret.length >= 8)),
  ];
  known.sort((a, b) => b.length - a.length);
  return (text) => {
    let redacted = text;
    for (const secret of known) redacted = redacted.split(secret).join('[REDACTED]');
    for (const pattern of KEY_PATTERNS)
      redacted = redacted.replace(
        pattern,
        (_match, prefix: unknown) => `${typeof prefix === 'string' ? prefix : ''}[REDACTED]`,
      );
    return redactUrlCredentials(redacted);
  };
}

/** The values of environment variables whose names say they are secret (`*_API_KEY`, `*_TOKEN`, …). */
export function environmentSecrets(environment: Record<string, string | undefined>): string[] {
  return Object.entries(environment)
    .filter(([name, value]) => SECRET_VARIABLE.test(name) && value !== undefined)
    .map(([, value]) => value as string);
}

/** Replaces secrets in text. */
export type Redactor = (text: string) => string;

// The names under which keys travel: headers, JSON fields, `name=value` settings.
const SECRET_FIELD_NAMES = 'x-api-key|api[_-]?key|authorization';
const SECRET_FIELD_NAME = new RegExp(`^(?:${SECRET_FIELD_NAMES})$`, 'i');

// Key shapes of the common vendors and auth headers, for keys the CLI was not told about.
const KEY_PATTERNS: readonly RegExp[] = [
  /\bsk-ant-[A-Za-z0-9_-]{8,}/g,
  /\bsk-(?:proj-)?[A-Za-z0-9_-]{16,}/g,
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  new RegExp(String.raw`\b((?:${SECRET_FIELD_NAMES})["']?\s*[:=]\s*["']?)[^\s"',}]{8,}`, 'gi'),
];

const SECRET_VARIABLE = /(?:KEY|TOKEN|SECRET|PASSWORD)$/i;

// Where the user-info of a URL starts, as the WHATWG parser (the one fetch uses) reads it: after
// `scheme://` (or `scheme:\\`); after `http:` and the other special schemes followed by any number of
// slashes or backslashes, none included (`http:user:pw@host` carries credentials); or after a
// scheme-relative `//` that starts a word and is not a comment (`//user:pw@host`, not `// see me@x`).
const USER_INFO_START = String.raw`\b[a-z][a-z0-9+.-]*:[/\\]{2}|\b(?:https?|wss?|ftp):[/\\]*|(?<![\w:/\\.])//(?=[^\s/])`;
// Where it ends: at the last `@` before the next `/` or line end. A password may hold quotes, backslashes
// and spaces: the parser encodes them rather than refusing the URL (`http://admin:hunter2 secret@host` is
// valid), so none of them ends the match. Spaces are the one risk to prose — `see https://example.com or
// mail me@example.com` must stay as it is — so a match that crosses white space must start the way
// credentials do, `user:` and a password that is not a port (`http://localhost:3000 and me@x` is prose).
// What is left over reads wrong at worst; a password that starts with a digits-only word followed by a
// space is the one shape this does not catch. Each part is capped at 512 characters, far beyond any real
// user name or password, so that a long line (a server's message) costs linear time, not quadratic.
const USER_INFO_BODY = String.raw`[^\s/:@]{0,512}:(?!\d+(?![^\s/@]))[^\s/@][^/\r\n]{0,512}@|[^\s/]{0,512}@`;
const URL_USER_INFO = new RegExp(`(${USER_INFO_START})(?:${USER_INFO_BODY})`, 'gi');

/**
 * Text with the user name and password of every URL in it replaced: `http://user:pw@host/v1` becomes
 * `http://***@host/v1`. Every URL the CLI shows passes through it (error lines, `--json` lines, the
 * verbose log), wherever the URL came from: an option, a configuration file, a server's message. It works
 * on free text, so it is a heuristic; a URL the CLI itself holds is shown parsed and rebuilt without its
 * user-info instead (see config/url-credentials.ts). Not for JSON text, whose string boundaries it may
 * cross: redact a value's strings before serializing (see render/json-lines.ts).
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

/**
 * True when a field of that name holds a key (`api_key`, `x-api-key`, `authorization`): its value is
 * redacted whole where values are redacted one by one (JSON lines), as the text patterns do in
 * `api_key: "…"`.
 */
export function isSecretFieldName(name: string): boolean {
  return SECRET_FIELD_NAME.test(name);
}

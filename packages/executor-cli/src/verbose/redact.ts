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

/**
 * A function that replaces the given secrets (and anything shaped like an API key) with `[REDACTED]`.
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
    return redacted;
  };
}

/** The values of environment variables whose names say they are secret (`*_API_KEY`, `*_TOKEN`, …). */
export function environmentSecrets(environment: Record<string, string | undefined>): string[] {
  return Object.entries(environment)
    .filter(([name, value]) => SECRET_VARIABLE.test(name) && value !== undefined)
    .map(([, value]) => value as string);
}

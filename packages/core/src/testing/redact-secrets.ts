import type { JsonValue } from './canonical-json.js';

/** What a redacted secret is replaced with. */
export const REDACTED = '[REDACTED]';

// Field names whose value is a credential wherever they appear (HTTP headers, provider options, tool
// arguments). Whole names only: `maxTokens` and `inputTokens` are not secrets.
const SECRET_KEY =
  /^(?:authorization|proxy-authorization|x-api-key|x-goog-api-key|api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|id[-_]?token|auth[-_]?token|client[-_]?secret|secret|secret[-_]?key|password|passwd|private[-_]?key|cookie|set-cookie|token)$/i;

// Credentials by their shape, found inside any text (an error message that echoes a key, a prompt that
// quotes one). Each pattern is specific enough that ordinary text, ids and signatures do not match it.
const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{20,}/g, // OpenAI and Anthropic API keys (sk-..., sk-proj-..., sk-ant-...)
  /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g, // GitHub tokens
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google API keys
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JSON Web Tokens
];

const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;

/**
 * A copy of a JSON value with secrets replaced by `[REDACTED]`: the text values of credential fields
 * (`authorization`, `apiKey`, `password`, ...), credentials recognised by their shape inside any text
 * (`sk-...` keys, `Bearer ...`, GitHub, AWS, Google and Slack tokens, JWTs), and the exact `secrets`
 * given. Idempotent, so a request redacted twice compares equal to one redacted once.
 */
export function redactSecrets(value: JsonValue, secrets: readonly string[] = []): JsonValue {
  const known = secrets.filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length);
  return redact(value, known);
}

function redact(value: JsonValue, secrets: readonly string[]): JsonValue {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redact(item, secrets));
  if (value === null || typeof value !== 'object') return value;
  const copy: { [key: string]: JsonValue } = {};
  for (const [key, field] of Object.entries(value)) {
    // Only text is a credential: `password: { type: 'string' }` in a tool's schema stays as it is.
    copy[key] = SECRET_KEY.test(key) && typeof field === 'string' && field !== '' ? REDACTED : redact(field, secrets);
  }
  return copy;
}

function redactText(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) redacted = redacted.split(secret).join(REDACTED);
  for (const pattern of SECRET_PATTERNS) redacted = redacted.replace(pattern, REDACTED);
  return redacted.replace(BEARER, `$1 ${REDACTED}`);
}

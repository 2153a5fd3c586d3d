/** The longest description of a thrown value, so a huge message cannot flood a tool result or a log. */
const MAX_LENGTH = 2_000;

/**
 * A one-line description of anything thrown, for messages. Never throws: a thrown value may be a Proxy,
 * `Object.create(null)`, or an object whose `message`, `toString` or `Symbol.toPrimitive` throws, and the
 * code that reports a failure must not fail itself (a tool call would be left without a result).
 */
export function describeThrown(value: unknown): string {
  const text = attempt(() => messageOf(value)) ?? attempt(() => String(value)) ?? fallback(value);
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH)}…` : text;
}

function messageOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const message = (value as { message?: unknown }).message;
  return typeof message === 'string' && message !== '' ? message : undefined;
}

function attempt(describe: () => string | undefined): string | undefined {
  try {
    return describe();
  } catch {
    return undefined;
  }
}

function fallback(value: unknown): string {
  if (typeof value !== 'object' || value === null) return `a thrown ${typeof value}`;
  const tag = attempt(() => Object.prototype.toString.call(value));
  return `a thrown value that cannot be described${tag ? ` (${tag})` : ''}`;
}

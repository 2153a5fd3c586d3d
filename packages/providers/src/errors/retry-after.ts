/** Anything with a `get(name)` for headers: a fetch `Headers` or a plain lookup. */
export interface HeaderLookup {
  get(name: string): string | null | undefined;
}

/**
 * The wait the server asked for, in milliseconds: `retry-after-ms` (OpenAI, Anthropic) first, then
 * `retry-after` in seconds or as an HTTP date. Undefined when neither is there or readable.
 */
export function retryAfterMs(headers: HeaderLookup | undefined, now: () => number = Date.now): number | undefined {
  if (!headers) return undefined;
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1_000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/** The server's `x-should-retry` verdict, when it gave one. */
export function shouldRetryHeader(headers: HeaderLookup | undefined): boolean | undefined {
  const value = headers?.get('x-should-retry')?.trim().toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

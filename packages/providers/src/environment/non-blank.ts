/**
 * The value, trimmed, as the SDKs read a setting: undefined when blank or not a string, so that
 * `OPENAI_API_KEY=` in a .env file counts as no key.
 */
export function nonBlank(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() || undefined : undefined;
}

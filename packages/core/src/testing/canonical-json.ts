/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * The value as JSON keeps it, with the keys of every object sorted: `undefined`, functions and symbols
 * dropped, class instances as their own enumerable fields (an AbortSignal as `{}`), `toJSON` honoured.
 * Two requests that JSON would write alike compare alike, and a cassette written from it is the same
 * bytes whatever order an object's keys were set in, so it diffs well.
 */
export function canonicalJson(value: unknown): JsonValue {
  const text = JSON.stringify(value);
  return text === undefined ? null : sortKeys(JSON.parse(text) as JsonValue);
}

function sortKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key] as JsonValue);
  return sorted;
}

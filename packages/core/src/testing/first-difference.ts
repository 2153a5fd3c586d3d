import type { JsonValue } from './canonical-json.js';

/** Where two JSON values first differ: the path to it and the value on each side (absent: `undefined`). */
export interface JsonDifference {
  /** A path such as `messages[2].content[0].text`; empty for the values themselves. */
  path: string;
  expected: JsonValue | undefined;
  actual: JsonValue | undefined;
}

/** The first difference between two JSON values, walking objects key by key and arrays in order. */
export function firstDifference(expected: JsonValue, actual: JsonValue, path = ''): JsonDifference | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const length = Math.max(expected.length, actual.length);
    for (let index = 0; index < length; index++) {
      const at = `${path}[${index}]`;
      if (index >= expected.length || index >= actual.length)
        return { path: at, expected: expected[index], actual: actual[index] };
      const difference = firstDifference(expected[index] as JsonValue, actual[index] as JsonValue, at);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    for (const key of keys) {
      const at = path === '' ? key : `${path}.${key}`;
      if (!(key in expected) || !(key in actual)) return { path: at, expected: expected[key], actual: actual[key] };
      const difference = firstDifference(expected[key] as JsonValue, actual[key] as JsonValue, at);
      if (difference) return difference;
    }
    return undefined;
  }
  return { path, expected, actual };
}

const EXCERPT = 60;

/**
 * The difference as a few readable lines: the path, then the expected and the actual value; two texts are
 * shown around the first character where they differ, with a caret under it.
 */
export function describeDifference(difference: JsonDifference): string {
  const { path, expected, actual } = difference;
  const lines = [`  at ${path === '' ? '(the request itself)' : path}:`];
  if (typeof expected === 'string' && typeof actual === 'string') {
    let at = 0;
    while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
    const start = Math.max(0, at - EXCERPT / 2);
    const prefix = start > 0 ? '…' : '';
    const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
    const shown = (text: string) =>
      `"${prefix}${escaped(text.slice(start, start + EXCERPT))}${text.length > start + EXCERPT ? '…' : ''}"`;
    lines.push(`    expected: ${shown(expected)}`);
    lines.push(`    actual:   ${shown(actual)}`);
    const column = '    expected: "'.length + prefix.length + escaped(expected.slice(start, at)).length;
    lines.push(`${' '.repeat(column)}^ first difference at character ${at}`);
    return lines.join('\n');
  }
  lines.push(`    expected: ${show(expected)}`);
  lines.push(`    actual:   ${show(actual)}`);
  return lines.join('\n');
}

function show(value: JsonValue | undefined): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 2 * EXCERPT ? `${text.slice(0, 2 * EXCERPT)}… (${text.length} characters)` : text;
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

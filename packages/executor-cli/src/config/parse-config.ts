import { parse, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { ConfigError } from './config-error.js';
import type { ConfigFile } from './config-schema.js';
import { configFileSchema } from './config-schema.js';
import { describeTomlError } from './toml-syntax-error.js';

/** Parses and validates configuration text; `file` names it in errors. */
export function parseConfig(text: string, file: string): ConfigFile {
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    if (error instanceof TomlError) {
      const syntax = describeTomlError(text, error);
      const problem = `is not valid TOML at line ${syntax.line}, column ${syntax.column}: ${syntax.problem}`;
      throw new ConfigError({ file, problem, cause: error });
    }
    throw error;
  }
  const parsed = configFileSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  throw new ConfigError({ file, key: issueKey(issue), problem: issueProblem(issue, data), cause: parsed.error });
}

function issueKey(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') path.push(issue.keys[0] ?? '');
  return path.join('.');
}

function issueProblem(issue: z.core.$ZodIssue, data: unknown): string {
  if (issue.code === 'unrecognized_keys') return 'is not a known setting (see `agentloop config init` for the list)';
  const value = valueAt(data, issue.path);
  const got = value === undefined || isSecret(issue.path, value) ? '' : ` (got ${shownValue(value)})`;
  // The schema's own messages ("must be a whole number") read well as they are; zod's defaults do not.
  if (/^(must|is) /.test(issue.message)) return `${issue.message}${got}`;
  if (issue.code === 'invalid_type') return `must be ${article(issue.expected)}${got}`;
  if (issue.code === 'invalid_value')
    return `must be one of ${issue.values.map((option) => JSON.stringify(option)).join(', ')}${got}`;
  return `${issue.message}${got}`;
}

// An error message is shown and logged; the value of a key setting or a header, or one shaped like a key,
// stays out of it, and so does a URL with an `@` in it: the user knows what they wrote, and no redaction
// pattern can be sure where a password ends in a URL the parser refused (`http://u:p/q@host`).
const SECRET_KEY = /api_?key|secret|token|password|^headers$/i;
const SECRET_VALUE = /\b(?:sk-|sk_|xox[a-z]-|gh[pousr]_|AIza)[A-Za-z0-9_-]{6,}|^[A-Za-z0-9_+/=.-]{32,}$/;
const URL_WITH_AT = /(?:^\s*[a-z][a-z0-9+.-]*:|[/\\]{2}).*@/is;

function isSecret(path: readonly PropertyKey[], value: unknown): boolean {
  if (path.some((key) => typeof key === 'string' && SECRET_KEY.test(key))) return true;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text !== undefined && (SECRET_VALUE.test(text) || URL_WITH_AT.test(text));
}

// TOML has inf and nan, which JSON would show as null.
function shownValue(value: unknown): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path)
    value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

function article(expected: string): string {
  const names: Record<string, string> = {
    int: 'a whole number',
    number: 'a number',
    string: 'a string',
    boolean: 'true or false',
    array: 'a list',
    object: 'a table',
    record: 'a table',
  };
  return names[expected] ?? expected;
}

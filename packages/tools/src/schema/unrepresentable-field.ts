// A tool's arguments arrive as JSON. A zod type whose values JSON cannot carry (a Date, a BigInt, a Map)
// converts to a JSON Schema of `{}`, so the tool would register and then reject every call the model
// can make. These helpers find such a field while the schema is converted, so that registration fails
// instead, naming the field and what to write in its place.

import { ToolDefinitionError } from '../errors/index.js';

/** A field of a tool's parameters whose values JSON cannot carry. */
export interface UnrepresentableField {
  /** Where the field sits, e.g. `when` or `events[].at`; empty for the parameters themselves. */
  path: string;
  /** The zod type, as written in code, e.g. `z.date()`. */
  type: string;
  /** What to use instead. */
  instead: string;
}

type Kind = Pick<UnrepresentableField, 'type' | 'instead'>;

const DATE: Kind = {
  type: 'z.date()',
  instead: 'z.iso.datetime() (zod 3: z.string().datetime()) and convert it in execute, or z.coerce.date()',
};
const BIGINT: Kind = {
  type: 'z.bigint()',
  instead: 'z.number().int() or a string of digits (z.string().regex(/^-?\\d+$/)), or z.coerce.bigint()',
};
const SYMBOL: Kind = { type: 'z.symbol()', instead: 'z.string() or z.enum([...])' };
const MAP: Kind = { type: 'z.map()', instead: 'z.record(z.string(), ...) or an array of entries' };
const SET: Kind = { type: 'z.set()', instead: 'z.array(...)' };
const FUNCTION: Kind = { type: 'z.function()', instead: 'a value the tool acts on; a model cannot send code to call' };
const UNDEFINED: Kind = { type: 'z.undefined()', instead: '.optional() on a field that can be left out' };
const VOID: Kind = { type: 'z.void()', instead: '.optional() on a field that can be left out' };
const NAN: Kind = { type: 'z.nan()', instead: 'z.number() or z.null()' };
const FILE: Kind = { type: 'z.file()', instead: 'z.string() holding a path, or base64 content' };
const CUSTOM: Kind = {
  type: 'z.custom() or z.instanceof()',
  instead: 'a schema of the JSON the model sends (z.string(), z.object({...})), converted in execute',
};
const LITERAL: Kind = {
  type: 'a z.literal() of undefined or a bigint',
  instead: 'a string, number or boolean literal',
};

const ZOD4_KINDS: Readonly<Record<string, Kind>> = {
  date: DATE,
  bigint: BIGINT,
  symbol: SYMBOL,
  map: MAP,
  set: SET,
  function: FUNCTION,
  undefined: UNDEFINED,
  void: VOID,
  nan: NAN,
  file: FILE,
  custom: CUSTOM,
};

const ZOD3_KINDS: Readonly<Record<string, Kind>> = {
  ZodDate: DATE,
  ZodBigInt: BIGINT,
  ZodSymbol: SYMBOL,
  ZodMap: MAP,
  ZodSet: SET,
  ZodFunction: FUNCTION,
  ZodUndefined: UNDEFINED,
  ZodVoid: VOID,
  ZodNaN: NAN,
};

interface ZodDefinition {
  type?: unknown;
  typeName?: unknown;
  coerce?: unknown;
  values?: unknown;
  value?: unknown;
}

/**
 * What JSON cannot carry about a zod 4 schema node (its `_zod.def`), or undefined when it can. A coerced
 * date or bigint is fine: it accepts the string or number the model sends. A transform is fine too:
 * it takes any JSON value (`z.preprocess`).
 */
export function unrepresentableZod4Kind(node: object): Kind | undefined {
  const definition = node as ZodDefinition;
  if (definition.coerce === true) return undefined;
  if (definition.type === 'literal') return hasNoJsonLiteral(definition.values) ? LITERAL : undefined;
  return typeof definition.type === 'string' ? ZOD4_KINDS[definition.type] : undefined;
}

/**
 * The JSON Schema of a coerced zod 4 date or bigint, which zod leaves empty: the JSON value that
 * coerces to one, so that the model knows what to send. zod-to-json-schema writes the same for zod 3.
 */
export function coercedZod4Schema(node: object): Record<string, unknown> | undefined {
  const definition = node as ZodDefinition;
  if (definition.coerce !== true) return undefined;
  if (definition.type === 'date') return { type: 'string', format: 'date-time' };
  if (definition.type === 'bigint') return { type: 'integer', format: 'int64' };
  return undefined;
}

/** The same for a zod 3 schema node (its `_def`). */
export function unrepresentableZod3Kind(node: object): Kind | undefined {
  const definition = node as ZodDefinition;
  if (definition.coerce === true) return undefined;
  if (definition.typeName === 'ZodLiteral') return hasNoJsonLiteral([definition.value]) ? LITERAL : undefined;
  return typeof definition.typeName === 'string' ? ZOD3_KINDS[definition.typeName] : undefined;
}

/**
 * The field a JSON Schema location names, as a reader writes it: `["properties", "events", "items",
 * "properties", "at"]` is `events[].at`. Branches of a union and other keywords that do not lead into a
 * value are left out.
 */
export function fieldPath(location: readonly (string | number)[]): string {
  let path = '';
  for (let index = 0; index < location.length; index++) {
    const segment = String(location[index]);
    const next = location[index + 1];
    if (segment === 'properties' && next !== undefined) {
      path += `${path === '' ? '' : '.'}${String(next)}`;
      index++;
    } else if ((segment === 'items' || segment === 'prefixItems') && isIndex(next)) {
      path += `[${String(next)}]`;
      index++;
    } else if (segment === 'items') path += '[]';
    else if (segment === 'additionalProperties') path += '.*';
    else if (segment === 'propertyNames') path += ' (its keys)';
    else if (['anyOf', 'oneOf', 'allOf'].includes(segment) && isIndex(next)) index++;
  }
  return path;
}

/** The error that fails a tool's registration because of `field`. */
export function unrepresentableFieldError(toolName: string, field: UnrepresentableField): ToolDefinitionError {
  const where = field.path === '' ? 'its parameters are' : `parameter "${field.path}" is`;
  return new ToolDefinitionError(
    `Tool "${toolName}": ${where} ${field.type}, which JSON cannot carry, so no call from a model could ` +
      `pass validation. Use ${field.instead}.`,
  );
}

/** True when no value of a literal can be sent as JSON; one that allows `1` as well as `undefined` is fine. */
function hasNoJsonLiteral(values: unknown): boolean {
  const list = Array.isArray(values) ? values : values instanceof Set ? [...values] : [];
  return list.length > 0 && list.every((value) => value === undefined || typeof value === 'bigint');
}

function isIndex(value: unknown): boolean {
  return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value));
}

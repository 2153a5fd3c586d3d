import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isPromiseLike } from '../promise-like.js';
import type { JsonSchema, ToolParameters } from '../tool.js';
import { flatObjectCheck } from './flat-object-schema.js';
import { isStandardSchema } from './to-json-schema.js';

/** The outcome of validating a tool call's arguments. */
export type ArgumentValidation = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * A validator compiled once per tool: takes raw arguments, gives the parsed value or a message. It answers
 * at once when the schema validates synchronously (most do), and with a promise when it does not (a zod
 * async refine), so that a call of a synchronous tool takes no timer and no promise of its own.
 */
export type ArgumentValidator = (args: unknown) => ArgumentValidation | Promise<ArgumentValidation>;

/**
 * Compiles a validator for a tool's parameters. Never throws: problems come back as a message that names
 * each field and what is wrong with it, phrased so a model can fix its call.
 */
export function createArgumentValidator(parameters: ToolParameters, jsonSchema: JsonSchema): ArgumentValidator {
  if (isStandardSchema(parameters)) return standardValidator(parameters as StandardSchemaV1);
  // A plain JSON Schema is read with zod 4, loaded now (the first call seldom waits for it) and read on
  // the first call; until then, and where zod cannot read it, the shape is checked. The simplest schemas
  // (flat objects of strings, numbers and booleans) accept valid arguments without zod, which is then
  // loaded only for a call they refuse, to say what is wrong (see flatObjectCheck).
  const flat = flatObjectCheck(jsonSchema);
  if (!flat) void loadJsonSchemaReader();
  let validate: ArgumentValidator | undefined;
  const compile = (): ArgumentValidator => {
    const schema = fromJsonSchema(jsonSchema);
    validate = schema ? standardValidator(schema) : (args) => checkObjectShape(args, jsonSchema);
    return validate;
  };
  return (args) => {
    const accepted = flat?.(args);
    if (accepted !== undefined) return { ok: true, value: accepted };
    if (validate) return validate(args);
    if (jsonSchemaReader !== undefined) return compile()(args);
    const shape = checkIsObject(args);
    if (!shape.ok) return shape;
    return loadJsonSchemaReader().then(() => (validate ?? compile())(args));
  };
}

function standardValidator(schema: StandardSchemaV1): ArgumentValidator {
  return (args) => {
    const shape = checkIsObject(args);
    if (!shape.ok) return shape;
    const outcome = schema['~standard'].validate(args);
    return isPromiseLike(outcome) ? Promise.resolve(outcome).then(toValidation) : toValidation(outcome);
  };
}

function toValidation(outcome: StandardSchemaV1.Result<unknown>): ArgumentValidation {
  if (outcome.issues) return { ok: false, message: describeIssues(outcome.issues) };
  return { ok: true, value: outcome.value };
}

type JsonSchemaReader = (schema: JsonSchema) => StandardSchemaV1;

/**
 * zod 4's `fromJSONSchema`, which turns a plain JSON Schema into a validator, so tools written with plain
 * JSON Schema get the same field-level errors as zod tools: undefined until loaded, null where zod cannot
 * give it (zod 3 lacks it; zod, a peer dependency, may not be installed), and then the shape is checked
 * only. It is loaded when the first such tool is compiled, not when the package is: zod is about a hundred
 * modules, and an app whose tools are all zod has loaded it already: the others need not wait for it at
 * start-up. `import()` rather than `require` gives the copy of zod an app importing it gets, not a second,
 * CommonJS one.
 */
let jsonSchemaReader: JsonSchemaReader | null | undefined;
let loadingReader: Promise<void> | undefined;

function loadJsonSchemaReader(): Promise<void> {
  loadingReader ??= import('zod/v4').then(
    (zod) => {
      const convert = (zod as { fromJSONSchema?: JsonSchemaReader }).fromJSONSchema;
      jsonSchemaReader = typeof convert === 'function' ? convert : null;
    },
    () => {
      jsonSchemaReader = null;
    },
  );
  return loadingReader;
}

function fromJsonSchema(jsonSchema: JsonSchema): StandardSchemaV1 | undefined {
  if (!jsonSchemaReader) return undefined;
  try {
    return jsonSchemaReader(jsonSchema);
  } catch {
    return undefined;
  }
}

function checkIsObject(args: unknown): ArgumentValidation {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    const got = args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args;
    return { ok: false, message: `arguments: expected a JSON object, got ${got}` };
  }
  return { ok: true, value: args };
}

function checkObjectShape(args: unknown, jsonSchema: JsonSchema): ArgumentValidation {
  const shape = checkIsObject(args);
  if (!shape.ok) return shape;
  const required = Array.isArray(jsonSchema.required) ? (jsonSchema.required as string[]) : [];
  const missing = required.filter((key) => !(key in (args as object)));
  if (missing.length > 0) return { ok: false, message: missing.map((key) => `${key}: required`).join('; ') };
  return shape;
}

function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)).join('.');
      return `${path || 'arguments'}: ${issue.message}`;
    })
    .join('; ');
}

import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ToolDefinitionError } from '../errors/index.js';
import { isPromiseLike } from '../promise-like.js';
import { createArgumentValidator, isStandardSchema, toJsonSchema } from '../schema/index.js';
import type { JsonSchema, ToolParameters } from '../tool.js';
import type { RegisteredTool } from '../tool-registry.js';
import type { LoopControlExit } from './loop-control-tools.js';
import { taskCompletionTool } from './loop-control-tools.js';

// Converting and compiling a schema is the costly part, and an app passes the same schema to every run.
const compiled = new WeakMap<object, RegisteredTool>();

/**
 * The `task_completion` tool of a run whose result has a schema (`agent.run(input, { output })`): the
 * same tool, with `result` taking that schema instead of text. Its arguments are validated like any
 * tool's: with the schema itself for zod (or another Standard Schema with a JSON Schema form: zod 3 and
 * 4), so refinements, defaults and transforms apply, and with zod's JSON Schema reader for a JSON Schema.
 * A result sent as JSON text is decoded first, since models often write an object as a string. The
 * schema must describe an object, like tool parameters. Throws ToolDefinitionError
 * (`invalid_tool_definition`) when it cannot be used, saying why.
 */
export function taskCompletionWithOutput(output: ToolParameters): RegisteredTool {
  if (typeof output !== 'object' || output === null) {
    throw new ToolDefinitionError(
      `The output schema must be a zod schema or a JSON Schema object, got ${output === null ? 'null' : typeof output}.`,
      'invalid_tool_definition',
    );
  }
  const cached = compiled.get(output);
  if (cached) return cached;
  const resultSchema = outputJsonSchema(output);
  const inputSchema = envelopeSchema(resultSchema);
  // isStandardSchema is a plain check, not a type guard (as where validate-arguments makes the same choice).
  const parameters = isStandardSchema(output) ? envelopeStandardSchema(output as StandardSchemaV1) : inputSchema;
  const validate = createArgumentValidator(parameters, inputSchema);
  const entry: RegisteredTool = {
    tool: { ...taskCompletionTool, description: DESCRIPTION, parameters },
    definition: { name: taskCompletionTool.name, description: DESCRIPTION, inputSchema },
    validate: (args) => validate(withDecodedResult(args)),
    loopControl: true,
  };
  compiled.set(output, entry);
  return entry;
}

/**
 * The exit a valid call of a `taskCompletionWithOutput` tool makes: its validated arguments are the
 * payload, the result typed by the run's schema. Undefined when they carry no result.
 */
export function taskCompletionWithOutputExit(args: unknown): LoopControlExit<unknown> | undefined {
  if (typeof args !== 'object' || args === null || !('result' in args)) return undefined;
  const artifacts = 'artifacts' in args && Array.isArray(args.artifacts) ? args.artifacts : undefined;
  return {
    exit: 'task_completion',
    payload: {
      result: args.result,
      ...(artifacts ? { artifacts: artifacts.filter((item): item is string => typeof item === 'string') } : {}),
    },
  };
}

const DESCRIPTION =
  'Call when the task is done, with its result in `result` as a JSON value of the schema given for it (an object, not text).';

const RESULT_DESCRIPTION = 'The result of the task, in the form this schema gives.';

function outputJsonSchema(output: ToolParameters): JsonSchema {
  try {
    return toJsonSchema(output, 'task_completion');
  } catch (error) {
    if (!ToolDefinitionError.isInstance(error)) throw error;
    // The conversion speaks of a tool's parameters; here the schema is the run's `output`.
    const reason = error.message
      .replace(/^Tool "task_completion": /, '')
      .replace(
        /^parameters must describe an object/,
        'it must describe an object (wrap a list or a single value in one)',
      )
      .replace(/^its parameters are/, 'it is');
    throw new ToolDefinitionError(
      `The output schema cannot be used for task_completion's result: ${reason}`,
      'invalid_tool_definition',
      error,
    );
  }
}

/** task_completion's own schema with `result` replaced by the output's, its definitions moved to the root. */
function envelopeSchema(result: JsonSchema): JsonSchema {
  const base = toJsonSchema(taskCompletionTool.parameters, taskCompletionTool.name);
  const { $defs, definitions, ...resultRoot } = result;
  const properties = typeof base.properties === 'object' && base.properties !== null ? base.properties : {};
  return {
    ...base,
    properties: {
      ...properties,
      result: { description: RESULT_DESCRIPTION, ...relocateSchemaRefs(resultRoot) },
    },
    ...($defs === undefined ? {} : { $defs }),
    ...(definitions === undefined ? {} : { definitions }),
  };
}

/**
 * The output's schema now sits at `#/properties/result`: a reference to its root (`#`, which zod writes
 * for a recursive schema) or into it moves with it; one into the definitions, which move to the root,
 * stays.
 */
function relocateSchemaRefs(schema: JsonSchema): JsonSchema {
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] = key === '$ref' && typeof value === 'string' ? relocateRef(value) : relocateRefs(value);
  }
  return copy;
}

function relocateRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relocateRefs);
  return typeof node === 'object' && node !== null ? relocateSchemaRefs({ ...node }) : node;
}

function relocateRef(ref: string): string {
  if (!ref.startsWith('#') || ref.startsWith('#/$defs/') || ref.startsWith('#/definitions/')) return ref;
  return `#/properties/result${ref.slice(1)}`;
}

/**
 * task_completion's arguments as a Standard Schema: `result` validated by the output schema (its issues
 * placed under `result`), `artifacts` a list of strings. What the output schema gives back (defaults,
 * transforms) becomes the result.
 */
function envelopeStandardSchema(output: StandardSchemaV1): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'agentloop',
      validate: (value) => {
        // createArgumentValidator has checked that the arguments are an object.
        if (typeof value !== 'object' || value === null) return { issues: [{ message: 'expected a JSON object' }] };
        const artifacts = 'artifacts' in value ? value.artifacts : undefined;
        const result = 'result' in value ? value.result : undefined;
        const issues: StandardSchemaV1.Issue[] = [];
        if (
          artifacts !== undefined &&
          !(Array.isArray(artifacts) && artifacts.every((item) => typeof item === 'string'))
        ) {
          issues.push({ message: 'expected a list of strings', path: ['artifacts'] });
        }
        if (result === undefined) return { issues: [{ message: 'required', path: ['result'] }, ...issues] };
        const finish = (outcome: StandardSchemaV1.Result<unknown>): StandardSchemaV1.Result<unknown> => {
          if (outcome.issues) {
            const placed = outcome.issues.map((issue) => ({ ...issue, path: ['result', ...(issue.path ?? [])] }));
            return { issues: [...placed, ...issues] };
          }
          if (issues.length > 0) return { issues };
          return { value: { result: outcome.value, ...(artifacts === undefined ? {} : { artifacts }) } };
        };
        const outcome = output['~standard'].validate(result);
        return isPromiseLike(outcome) ? Promise.resolve(outcome).then(finish) : finish(outcome);
      },
    },
  };
}

// Models often send an object as JSON text; the schema describes an object, so text can only mean that.
function withDecodedResult(args: unknown): unknown {
  if (typeof args !== 'object' || args === null || !('result' in args) || typeof args.result !== 'string') {
    return args;
  }
  try {
    const decoded: unknown = JSON.parse(args.result);
    return typeof decoded === 'object' && decoded !== null ? { ...args, result: decoded } : args;
  } catch {
    return args;
  }
}

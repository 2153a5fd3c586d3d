import type { JsonSchema } from '@agentloop/tools';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { z as Zod } from 'zod';

// The tools' arguments are checked by zod, whose messages the model knows how to act on. Declaring the
// schemas with zod at import loaded zod (about a hundred modules, 55 ms) in every process that creates the
// tools, an `agentloop run` that never calls one included, before it could start. The parameters are a
// Standard Schema that carries its JSON Schema, written out (a test holds it equal to zod's conversion),
// and builds its zod schema when the first call is checked.

/** A tool's parameters: their JSON Schema now, their zod schema on the first check. */
export interface LazyZodParameters<Output> extends StandardSchemaV1<unknown, Output> {
  readonly '~standard': StandardSchemaV1.Props<unknown, Output> & StandardJSONSchemaV1.Props<unknown, Output>;
  /** The zod schema the arguments are checked with, loading zod the first time. */
  zodSchema(): Promise<Zod.ZodType<Output>>;
}

let loadingZod: Promise<typeof Zod> | undefined;

/** zod, imported once for every tool: `import()` gives the app's own copy. */
export function loadZod(): Promise<typeof Zod> {
  loadingZod ??= import('zod').then((module) => module.z);
  return loadingZod;
}

/**
 * Parameters whose JSON Schema is `jsonSchema` (an object's, as zod 4 converts `build`'s schema for input)
 * and whose arguments `build`'s zod schema checks: asynchronously until zod is loaded, at once after.
 */
export function lazyZodParameters<Schema extends Zod.ZodType>(
  jsonSchema: JsonSchema,
  build: (z: typeof Zod) => Schema,
): LazyZodParameters<Zod.output<Schema>> {
  type Output = Zod.output<Schema>;
  let schema: Schema | undefined;
  let loading: Promise<Schema> | undefined;
  const load = (): Promise<Schema> => {
    loading ??= loadZod().then((z) => {
      schema = build(z);
      return schema;
    });
    return loading;
  };
  const validate = (value: unknown) =>
    (schema ? schema['~standard'].validate(value) : load().then((built) => built['~standard'].validate(value))) as
      | StandardSchemaV1.Result<Output>
      | Promise<StandardSchemaV1.Result<Output>>;
  // Each call gets its own copy, so that a caller changing what it got cannot change what others see.
  const copy = (): JsonSchema => structuredClone(jsonSchema);
  return {
    '~standard': { version: 1, vendor: 'agentloop', validate, jsonSchema: { input: copy, output: copy } },
    zodSchema: load as () => Promise<Zod.ZodType<Output>>,
  };
}

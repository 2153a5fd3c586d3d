import { type LazyLibrary, lazyLibrary } from './lazy-library.js';

// The libraries the tools load on use, each imported by the first code that needs it rather than by
// whoever imports the tools: most processes never need them, and importing them costs every start-up.

const PREPARE = 'await prepareTools()';

/** jsonrepair: a tool call whose argument JSON needs a repair. */
export const jsonrepairLibrary: LazyLibrary<typeof import('jsonrepair')> = lazyLibrary({
  name: 'jsonrepair',
  from: import.meta.url,
  load: () => import('jsonrepair'),
  prepare: PREPARE,
});

/** fast-xml-parser: the XML protocol reading an element-form block. */
export const fastXmlParserLibrary: LazyLibrary<typeof import('fast-xml-parser')> = lazyLibrary({
  name: 'fast-xml-parser',
  from: import.meta.url,
  load: () => import('fast-xml-parser'),
  prepare: PREPARE,
});

/** What the tools use of zod-to-json-schema (its typings describe its default export as the module itself). */
export type ZodToJsonSchema = Pick<typeof import('zod-to-json-schema'), 'ignoreOverride' | 'zodToJsonSchema'>;

/** zod-to-json-schema: a tool whose parameters are a zod 3 schema. */
export const zodToJsonSchemaLibrary: LazyLibrary<ZodToJsonSchema> = lazyLibrary<ZodToJsonSchema>({
  name: 'zod-to-json-schema',
  from: import.meta.url,
  load: () => import('zod-to-json-schema') as Promise<ZodToJsonSchema>,
  prepare: PREPARE,
});

/** zod 4's core: converting zod/mini's schemas, and zod 4.0–4.1's, which do not convert themselves. */
export const zod4CoreLibrary: LazyLibrary<typeof import('zod/v4/core')> = lazyLibrary({
  name: 'zod/v4/core',
  from: import.meta.url,
  load: () => import('zod/v4/core'),
  prepare: PREPARE,
});

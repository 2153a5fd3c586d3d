/** The record schemas' module, once loaded. */
export type RecordSchemas = typeof import('./record-schemas.js');

let loaded: RecordSchemas | undefined;
let loading: Promise<RecordSchemas> | undefined;

/**
 * Loads the schemas that check saved records (and zod with them). Zod is about a hundred modules, most of
 * the cost of opening a store; a store awaits this before an operation that reads a record, and a
 * `import()` rather than a static import lets an app's bundler put it in a chunk of its own.
 */
export function loadRecordSchemas(): Promise<RecordSchemas> {
  loading ??= import('./record-schemas.js').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

/** The record schemas, for the synchronous readers; an operation that reads records awaited loadRecordSchemas(). */
export function recordSchemas(): RecordSchemas {
  if (!loaded) throw new Error('The session record schemas were read before loadRecordSchemas() resolved.');
  return loaded;
}

import { fastXmlParserLibrary, jsonrepairLibrary, zod4CoreLibrary, zodToJsonSchemaLibrary } from './tool-libraries.js';

/** What `prepareTools` loads. */
export interface PrepareToolsOptions {
  /** The XML protocol's libraries: fast-xml-parser and jsonrepair. Default true. */
  xml?: boolean;
  /** jsonrepair, for argument JSON that needs a repair. Default true. */
  repair?: boolean;
  /** The zod 3 and zod/mini schema converters (zod-to-json-schema, zod/v4/core). Default true. */
  schemas?: boolean;
}

/**
 * Loads the libraries the tools' synchronous functions load on use (argument repair, the XML protocol's
 * element form, zod 3 and zod/mini schema conversion), with `import()`, which an app's bundler follows.
 * Node loads them on use without it; an app bundled with esbuild, Vite or Next.js awaits it once before
 * it registers zod 3 or zod/mini tools or runs an agent, or gets an error saying so. An agent loads what
 * its run needs by itself (the XML protocol's libraries when it speaks XML). Rejects when a library
 * cannot be loaded.
 */
export async function prepareTools(options: PrepareToolsOptions = {}): Promise<void> {
  const { xml = true, repair = true, schemas = true } = options;
  await Promise.all([
    xml || repair ? jsonrepairLibrary.load() : undefined,
    xml ? fastXmlParserLibrary.load() : undefined,
    schemas ? zodToJsonSchemaLibrary.load() : undefined,
    schemas ? zod4CoreLibrary.load() : undefined,
  ]);
}

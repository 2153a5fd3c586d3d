import { describe, expect, it, vi } from 'vitest';
import { prepareTools } from './prepare-tools.js';
import { fastXmlParserLibrary, jsonrepairLibrary, zodToJsonSchemaLibrary } from './tool-libraries.js';

// Recorded as they are imported: an import (not a `require`) is what an app's bundler follows.
const imported = vi.hoisted(() => [] as string[]);
for (const name of ['jsonrepair', 'fast-xml-parser', 'zod-to-json-schema', 'zod/v4/core']) {
  vi.doMock(name, async (importOriginal) => {
    imported.push(name);
    return importOriginal();
  });
}

describe('prepareTools', () => {
  it('imports the libraries chosen, and the synchronous code then uses what it imported', async () => {
    await prepareTools({ xml: false, repair: false, schemas: false });
    expect(imported).toEqual([]);

    await prepareTools({ xml: false, schemas: false });
    expect(imported).toEqual(['jsonrepair']);

    await prepareTools();
    expect(imported.sort()).toEqual(['fast-xml-parser', 'jsonrepair', 'zod-to-json-schema', 'zod/v4/core']);
    expect(jsonrepairLibrary.get().jsonrepair("{'a': 1,}")).toBe('{"a": 1}');
    expect(new (fastXmlParserLibrary.get().XMLParser)().parse('<a>1</a>')).toEqual({ a: 1 });
    expect(typeof zodToJsonSchemaLibrary.get().zodToJsonSchema).toBe('function');
  });
});

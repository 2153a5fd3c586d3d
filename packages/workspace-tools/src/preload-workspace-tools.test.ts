import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import { preloadWorkspaceTools } from './preload-workspace-tools.js';
import { createWorkspaceTools } from './workspace-tools.js';

// The ES modules the tools import on their first call, recorded as they are imported.
const imported = vi.hoisted(() => [] as string[]);
vi.mock('re2js', async (importOriginal) => {
  imported.push('re2js');
  return importOriginal();
});
vi.mock('diff', async (importOriginal) => {
  imported.push('diff');
  return importOriginal();
});

const required = createRequire(import.meta.url);
const inRequireCache = (name: string) =>
  Object.keys(required.cache).some((file) => file.includes(`/node_modules/${name}/`));

describe('preloadWorkspaceTools', () => {
  it('loads what the first call of each tool would, and builds the tools’ argument schemas', async () => {
    const tools = createWorkspaceTools();
    const readFile = tools.find((tool) => tool.name === 'read_file');
    if (!readFile) throw new Error('createWorkspaceTools made no read_file');
    const validate = (readFile.parameters as { '~standard': { validate(value: unknown): unknown } })['~standard']
      .validate;
    // Before: checking arguments waits for zod to load.
    expect(validate({ path: 'a.txt' })).toBeInstanceOf(Promise);

    await preloadWorkspaceTools(tools);

    // After: the schema is built, and the check answers at once.
    expect(validate({ path: 'a.txt' })).toEqual({ value: { path: 'a.txt' } });
    expect(imported).toEqual(['re2js', 'diff']);
    expect(inRequireCache('picomatch')).toBe(true);
    expect(inRequireCache('ignore')).toBe(true);
  });
});

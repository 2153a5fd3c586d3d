import { describe, expect, it, vi } from 'vitest';
import { picomatchLibrary } from './guard/index.js';
import { ignoreLibrary } from './listing/index.js';
import { preloadWorkspaceTools } from './preload-workspace-tools.js';
import { createWorkspaceTools } from './workspace-tools.js';

// The modules the tools import on their first call, recorded as they are imported: an import (not a
// `require`) is what an app's bundler follows.
const imported = vi.hoisted(() => [] as string[]);
vi.mock('picomatch', async (importOriginal) => {
  imported.push('picomatch');
  return importOriginal();
});
vi.mock('ignore', async (importOriginal) => {
  imported.push('ignore');
  return importOriginal();
});
vi.mock('re2js', async (importOriginal) => {
  imported.push('re2js');
  return importOriginal();
});
vi.mock('diff', async (importOriginal) => {
  imported.push('diff');
  return importOriginal();
});

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
    expect(imported).toEqual(['picomatch', 'ignore', 're2js', 'diff']);
    expect(picomatchLibrary.get()('*.ts')('a.ts')).toBe(true);
    expect(ignoreLibrary.get()().add('*.log').ignores('a.log')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { lazyLibrary } from './lazy-library.js';

describe('lazyLibrary', () => {
  it('hands synchronous code the library its load imported, without requiring it', async () => {
    const imported = { answer: 42 };
    // A name no folder holds: only the import can give it, as in an app's bundle.
    const library = lazyLibrary({
      name: 'no-such-package-anywhere',
      from: import.meta.url,
      load: async () => imported,
      prepare: 'await prepareSomething()',
    });
    await expect(library.load()).resolves.toBe(imported);
    expect(library.get()).toBe(imported);
  });

  it('says what to await when nothing loaded the library and it cannot be required', () => {
    const library = lazyLibrary({
      name: 'no-such-package-anywhere',
      from: import.meta.url,
      load: async () => ({}),
      prepare: 'await prepareSomething()',
    });
    expect(() => library.get()).toThrow(
      expect.objectContaining({
        code: 'library_not_loaded',
        message: expect.stringMatching(
          /^no-such-package-anywhere is not loaded and cannot be required here \(Cannot find module 'no-such-package-anywhere'.*`await prepareSomething\(\)` before this call loads it/,
        ),
      }),
    );
  });

  it('requires the library at once where Node can, shaped by fromRequired', () => {
    const library = lazyLibrary({
      name: 'jsonrepair',
      from: import.meta.url,
      load: async () => {
        throw new Error('not called');
      },
      fromRequired: (required) => (required as typeof import('jsonrepair')).jsonrepair,
      prepare: 'await prepareTools()',
    });
    expect(library.get()("{'a': 1,}")).toBe('{"a": 1}');
  });

  it('imports once for concurrent loads, and tries again after a failed one', async () => {
    let attempts = 0;
    const library = lazyLibrary({
      name: 'no-such-package-anywhere',
      from: import.meta.url,
      load: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('offline');
        return { attempt: attempts };
      },
      prepare: 'await prepareSomething()',
    });
    await expect(library.load()).rejects.toThrow('offline');
    const [first, second] = await Promise.all([library.load(), library.load()]);
    expect(first).toEqual({ attempt: 2 });
    expect(second).toBe(first);
    expect(attempts).toBe(2);
  });
});

import { createRequire } from 'node:module';
import { AgentloopError } from '@agentloop/spec';

/** A library loaded on use: `load()` imports it, `get()` hands it to synchronous code. */
export interface LazyLibrary<Library> {
  /** Imports the library (once; later calls share the first). Rejects when it cannot be loaded. */
  load(): Promise<Library>;
  /**
   * The library, for synchronous code: the one `load()` imported, else required at once (Node, unbundled).
   * Throws an AgentloopError (`library_not_loaded`) naming what to await when neither works.
   */
  get(): Library;
}

/** How a library is reached. */
export interface LazyLibraryOptions<Library> {
  /** The package name, as the dependent package declares it. */
  name: string;
  /** `import.meta.url` of the dependent module: the synchronous fallback resolves the name from there. */
  from: string;
  /**
   * Imports the library, with the specifier written out (`() => import('jsonrepair')`), so that an app's
   * bundler (esbuild, Vite, Next.js) sees the import and puts the library in the bundle.
   */
  load: () => Promise<Library>;
  /** The library from what `require` returns, when that is shaped differently from the import. */
  fromRequired?: (required: unknown) => Library;
  /** What an app awaits to load it beforehand, for the error: e.g. `await prepareTools()`. */
  prepare: string;
}

/**
 * A library loaded on use. Synchronous code (argument repair, schema conversion, span making) cannot await
 * an import, so the async points before it (a run's start, `prepareTools()`) call `load()`. Where nothing
 * did, `get()` requires the library at once, which Node can do from the package's own folder; an app's
 * bundle has no such folder (a bundler cannot follow a `require` of a computed name), and there `get()`
 * says what to await instead.
 */
export function lazyLibrary<Library>(options: LazyLibraryOptions<Library>): LazyLibrary<Library> {
  let library: Library | undefined;
  let loading: Promise<Library> | undefined;
  return {
    load() {
      loading ??= options.load().then(
        (loaded) => {
          library = loaded;
          return loaded;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    get() {
      if (library !== undefined) return library;
      let required: unknown;
      try {
        required = createRequire(options.from)(options.name);
      } catch (error) {
        throw new AgentloopError(
          `${options.name} is not loaded and cannot be required here (${firstLine(error)}); in an app built with a bundler, \`${options.prepare}\` before this call loads it, or install ${options.name} beside the app.`,
          { code: 'library_not_loaded', cause: error },
        );
      }
      library = options.fromRequired ? options.fromRequired(required) : (required as Library);
      return library;
    },
  };
}

/** True for the error `get()` throws where a library is neither loaded nor requirable (an app's bundle). */
export function isLibraryNotLoaded(error: unknown): boolean {
  return AgentloopError.isInstance(error) && error.code === 'library_not_loaded';
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

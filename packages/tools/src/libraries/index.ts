export type { LazyLibrary, LazyLibraryOptions } from './lazy-library.js';
export { isLibraryNotLoaded, lazyLibrary } from './lazy-library.js';
export type { PrepareToolsOptions } from './prepare-tools.js';
export { prepareTools } from './prepare-tools.js';

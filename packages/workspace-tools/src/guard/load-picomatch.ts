import { type LazyLibrary, lazyLibrary } from '@agentloop/tools/internal';
import type picomatchType from 'picomatch';

/**
 * picomatch, loaded by the first glob compiled (the deny-list's first match, a listing's pattern) or by
 * `preloadWorkspaceTools()`: a process that creates the tools and never opens a file never loads it (nor
 * waits for it at start-up). The preload imports it, which an app's bundler follows.
 */
export const picomatchLibrary: LazyLibrary<typeof picomatchType> = lazyLibrary<typeof picomatchType>({
  name: 'picomatch',
  from: import.meta.url,
  load: async () => (await import('picomatch')).default,
  prepare: 'await preloadWorkspaceTools()',
});

/** picomatch, for the synchronous matchers. */
export function loadPicomatch(): typeof picomatchType {
  return picomatchLibrary.get();
}

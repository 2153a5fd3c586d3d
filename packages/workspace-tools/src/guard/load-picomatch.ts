import { createRequire } from 'node:module';
import type picomatchType from 'picomatch';

/**
 * picomatch, loaded by the first glob compiled (the deny-list's first match, a listing's pattern): a
 * process that creates the tools and never opens a file never loads it (nor waits for it at start-up). It ships
 * CommonJS, so the synchronous matchers can require it on use.
 */
let picomatch: typeof picomatchType | undefined;
export function loadPicomatch(): typeof picomatchType {
  picomatch ??= createRequire(import.meta.url)('picomatch') as typeof picomatchType;
  return picomatch;
}

import { WorkspaceToolError } from '../errors/index.js';
import { loadPicomatch } from '../guard/index.js';

/**
 * A glob as models write them, matched against a `/`-separated path: `*.ts` (no `/`) matches a file name
 * at any depth, as in `.gitignore` and ripgrep's `--glob`; a pattern with a `/` (`src/**` then a file
 * pattern) matches the path from the folder searched. Dot files match (`.github/**`). Throws a WorkspaceToolError for an empty pattern.
 */
export function pathPattern(pattern: string, argument: string): (path: string) => boolean {
  const trimmed = pattern.trim().replace(/^\.\//, '');
  if (trimmed === '') {
    throw new WorkspaceToolError(
      `${argument} is empty; give a glob such as "**/*.ts", or leave it out.`,
      'invalid_request',
    );
  }
  return loadPicomatch()(trimmed, { dot: true, basename: !trimmed.includes('/') });
}

import { sep } from 'node:path';
import { WorkspaceToolError } from '../errors/index.js';

/**
 * Checks a path as a model wrote it and puts it in the platform's form, before anything resolves it.
 * Models write paths of every shape, so each odd one gets a refusal that says what to write instead
 * rather than a surprise:
 *
 * - a NUL byte, which no file name holds (Node's own error would not say which argument was wrong);
 * - `~` and `~/...`: the tools do not expand the home directory (a shell would), and it is outside the
 *   workspace anyway;
 * - Windows separators: on POSIX a `\` is read as `/`, so that `src\app.ts` is the file the model meant
 *   and `..\..\etc` is caught as the traversal it is, not taken as one odd file name;
 * - a Windows drive path (`C:\...`) on POSIX, which would otherwise name a folder called `C:`.
 *
 * Throws a WorkspaceToolError (`invalid_path`, `outside_workspace`).
 */
export function normalizeModelPath(path: string): string {
  if (path === '') {
    throw new WorkspaceToolError(
      'The path is empty; give a path relative to the workspace, e.g. "src/index.ts".',
      'invalid_path',
    );
  }
  if (path.includes('\0')) {
    throw new WorkspaceToolError(
      `The path ${JSON.stringify(path)} holds a NUL byte, which no file name can; give the path as plain text.`,
      'invalid_path',
    );
  }
  const normalized = sep === '/' ? path.replaceAll('\\', '/') : path;
  if (normalized === '~' || normalized.startsWith('~/') || normalized.startsWith(`~${sep}`)) {
    throw new WorkspaceToolError(
      `"${path}" names the home directory, which is outside the workspace; "~" is not expanded. Use a path relative to the workspace.`,
      'outside_workspace',
    );
  }
  if (sep === '/' && /^[a-zA-Z]:\//.test(normalized)) {
    throw new WorkspaceToolError(
      `"${path}" is a Windows path, outside the workspace; use a path relative to the workspace, with "/" between folders.`,
      'outside_workspace',
    );
  }
  return normalized;
}

import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * Resolves a path the model gave against the workspace, refusing one that leads outside it: `..`, an
 * absolute path elsewhere, or a symbolic link (to a file or a directory, anywhere on the way) that points
 * outside. Returns the path with links resolved, so what is opened is what was checked. Throws an Error
 * the model sees as the tool's error result.
 */
export function workspacePath(workspace: string, path: string): string {
  const root = realPath(resolve(workspace));
  const absolute = realPath(resolve(workspace, path));
  const inside = relative(root, absolute);
  // `..foo` is a file name inside the workspace; `..` and `../foo` lead out of it.
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new Error(`"${path}" is outside the workspace (${workspace}); use a path inside it.`);
  }
  return absolute;
}

// A path that does not exist yet keeps its unresolved tail, under its nearest existing directory resolved:
// `link/missing` with `link` pointing outside must still count as outside.
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(path) === path) return path;
    return join(realPath(dirname(path)), basename(path));
  }
}

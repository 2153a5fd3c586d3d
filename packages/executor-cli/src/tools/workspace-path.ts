import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A path the model gave, resolved inside the workspace. */
export interface WorkspaceEntry {
  /** The workspace directory, links resolved. */
  root: string;
  /** The absolute path, links resolved: what is opened. */
  real: string;
  /** The path relative to the workspace as named, links not followed, `/`-separated (`.` for the root). */
  named: string;
  /** The path relative to the workspace with links resolved, `/`-separated (`.` for the root). */
  resolved: string;
}

/**
 * Resolves a path the model gave against the workspace, refusing one that leads outside it: `..`, an
 * absolute path elsewhere, or a symbolic link (to a file or a directory, anywhere on the way) that points
 * outside. Returns the path with links resolved, so what is opened is what was checked. Throws an Error
 * the model sees as the tool's error result.
 */
export function workspacePath(workspace: string, path: string): string {
  return resolveWorkspacePath(workspace, path).real;
}

/** Like workspacePath, with the path relative to the workspace both as named and with links resolved. */
export function resolveWorkspacePath(workspace: string, path: string): WorkspaceEntry {
  const root = realPath(resolve(workspace));
  const real = realPath(resolve(workspace, path));
  const resolved = relative(root, real);
  if (isOutside(resolved)) {
    throw new Error(`"${path}" is outside the workspace (${workspace}); use a path inside it.`);
  }
  return {
    root,
    real,
    named: slashes(relative(resolve(workspace), resolve(workspace, path))),
    resolved: slashes(resolved),
  };
}

/** True when `target` (absolute) is the workspace `root` (absolute, links resolved) or inside it. */
export function isInside(root: string, target: string): boolean {
  return !isOutside(relative(root, target));
}

// `..foo` is a file name inside the workspace; `..` and `../foo` lead out of it.
function isOutside(inside: string): boolean {
  return inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
}

function slashes(path: string): string {
  return path === '' ? '.' : path.split(sep).join('/');
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

import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { WorkspaceToolError } from '../errors/index.js';
import { normalizeModelPath } from './model-path.js';

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
 * absolute path elsewhere, `~`, or a symbolic link (to a file or a directory, anywhere on the way) that
 * points outside. Returns the path with links resolved, so what is opened is what was checked; a link
 * swapped after this check is caught when the file is opened (openWorkspaceFile). Throws a
 * WorkspaceToolError (`invalid_path`, `outside_workspace`).
 */
export function resolveWorkspacePath(workspace: string, path: string): WorkspaceEntry {
  const given = normalizeModelPath(path);
  const base = resolve(workspace);
  const root = realPath(base);
  const real = realPath(resolve(base, given));
  const resolved = relative(root, real);
  if (isOutside(resolved)) {
    throw new WorkspaceToolError(
      `"${path}" is outside the workspace (${workspace}); use a path inside it.`,
      'outside_workspace',
    );
  }
  // An absolute path through the workspace's real location (not through the link to it) is named by
  // where it resolves.
  const named = relative(base, resolve(base, given));
  return { root, real, named: slashes(isOutside(named) ? resolved : named), resolved: slashes(resolved) };
}

/** True when `target` (absolute) is the workspace `root` (absolute, links resolved) or inside it. */
export function isInside(root: string, target: string): boolean {
  return !isOutside(relative(root, target));
}

/** A path relative to `root` for messages and patterns, `/`-separated (`.` for the root itself). */
export function relativeToRoot(root: string, target: string): string {
  return slashes(relative(root, target));
}

// `..foo` is a file name inside the workspace; `..` and `../foo` lead out of it.
function isOutside(inside: string): boolean {
  return inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
}

function slashes(path: string): string {
  return path === '' ? '.' : path.split(sep).join('/');
}

// A path that does not exist yet keeps its unresolved tail, under its nearest existing directory resolved:
// `link/missing` with `link` pointing outside must still count as outside. A dangling link is followed
// to where it points, as creating a file through it would (the kernel gives up after 40 links).
function realPath(path: string, links = 0): string {
  try {
    return realpathSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(path) === path) return path;
    const target = links < 40 ? danglingLinkTarget(path) : undefined;
    if (target !== undefined) return realPath(resolve(dirname(path), target), links + 1);
    return join(realPath(dirname(path), links), basename(path));
  }
}

function danglingLinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

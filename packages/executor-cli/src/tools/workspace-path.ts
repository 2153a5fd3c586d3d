import { isAbsolute, relative, resolve } from 'node:path';

/**
 * Resolves a path the model gave against the workspace, refusing one that leads outside it (`..`, an
 * absolute path elsewhere). Throws an Error the model sees as the tool's error result.
 */
export function workspacePath(workspace: string, path: string): string {
  const absolute = resolve(workspace, path);
  const inside = relative(workspace, absolute);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    throw new Error(`"${path}" is outside the workspace (${workspace}); use a path inside it.`);
  }
  return absolute;
}

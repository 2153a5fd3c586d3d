import { WorkspaceToolError } from '../errors/index.js';

/**
 * Names of configuration that programs outside the agent act on when they meet it in a folder, beside git's
 * own `.git` and agentloop's `.agentloop`: `.gitmodules` (git clones what it names), the settings of other
 * agents and their skills (`.agents`, `.claude`: hooks and instructions a later session follows), an
 * editor's folder settings and tasks (`.vscode`, `.idea`) and direnv's `.envrc` (a shell script run on `cd`).
 * The file tools never write them and run_command's sandbox keeps them read-only, at any depth.
 */
export const HOST_CONFIG_NAMES: readonly string[] = ['.gitmodules', '.agents', '.claude', '.vscode', '.idea', '.envrc'];

const NAMES = new Set(HOST_CONFIG_NAMES);

/**
 * True when a workspace-relative path (`/`-separated) is, or is inside, one of HOST_CONFIG_NAMES at any
 * depth. Case is ignored, as for `.git`.
 */
export function isHostConfig(relativePath: string): boolean {
  return relativePath.split('/').some((segment) => NAMES.has(segment.toLowerCase()));
}

/** Throws a WorkspaceToolError (`host_config`) when a write would touch one of HOST_CONFIG_NAMES. */
export function refuseHostConfig(path: string, relativePath: string): void {
  if (!isHostConfig(relativePath)) return;
  const name = relativePath.split('/').find((segment) => NAMES.has(segment.toLowerCase()));
  throw new WorkspaceToolError(
    `"${path}" is inside ${name}, configuration that programs outside the agent act on (an editor, git, direnv, another agent); the tools never change it, because a change would run with the user's rights outside any sandbox. Tell the user what to change instead.`,
    'host_config',
  );
}

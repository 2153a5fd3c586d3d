import { WorkspaceToolError } from '../errors/index.js';

/**
 * True when a workspace-relative path (`/`-separated) is git's own data: a `.git` folder or file at any
 * depth (submodules and worktrees have a `.git` file). Writing there can plant a hook that runs the next
 * time the user runs git, outside any sandbox, so the tools never write it. Case is ignored, because macOS
 * and Windows open `.GIT/config` for `.git/config`.
 */
export function isGitInternal(relativePath: string): boolean {
  return relativePath.split('/').some((segment) => segment.toLowerCase() === '.git');
}

/** Throws a WorkspaceToolError (`git_internals`) when a write would touch `.git`. */
export function refuseGitInternals(path: string, relativePath: string): void {
  if (!isGitInternal(relativePath)) return;
  throw new WorkspaceToolError(
    `"${path}" is inside .git; git's own files are never written by these tools (a changed hook or config would run outside the workspace's rules). Change other files, and leave git's data to git.`,
    'git_internals',
  );
}

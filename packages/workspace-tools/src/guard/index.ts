export type { DenyList, DenyListOptions } from './deny-list.js';
export { createDenyList, DEFAULT_ALLOWED_FILES, DEFAULT_DENIED_FILES, DEFAULT_DENY_LIST } from './deny-list.js';
export { isGitInternal } from './git-internals.js';
export type { FileAccess, OpenedFile, OpenedFileCheck, OpenWorkspaceFileOptions } from './open-workspace-file.js';
export { assertOpenedInside, openWorkspaceFile } from './open-workspace-file.js';
export type { WorkspaceGuardOptions } from './workspace-guard.js';
export { WorkspaceGuard } from './workspace-guard.js';
export type { WorkspaceEntry } from './workspace-path.js';
export { resolveWorkspacePath } from './workspace-path.js';

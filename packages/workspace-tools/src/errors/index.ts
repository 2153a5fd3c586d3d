export type { WorkspaceToolErrorCode } from './workspace-tool-error.js';
export { WorkspaceToolError } from './workspace-tool-error.js';

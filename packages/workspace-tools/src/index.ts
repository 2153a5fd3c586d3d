// @agentloop/workspace-tools: tools that act on a workspace (read, write, edit or patch, list, search, run a
// command in a sandbox), confined by one workspace guard. A tool package like any third-party one: it
// depends on @agentloop/tools and zod alone.
import { workspaceToolsPlugin } from './workspace-tools.js';

export type {
  CommandRunner,
  CommandRunOutcome,
  CommandRunRequest,
  RunCommandToolOptions,
  SandboxMode,
  SandboxOptions,
  SandboxStatus,
} from './command/index.js';
export {
  COMMAND_ENVIRONMENT,
  createRunCommandTool,
  HIDDEN_HOME_PATHS,
  RUN_COMMAND_MAX_OUTPUT_BYTES,
  RUN_COMMAND_MAX_TIMEOUT_MS,
  RUN_COMMAND_TIMEOUT_MS,
  SandboxUnavailableError,
  SECRET_VARIABLE,
  sandboxStatus,
} from './command/index.js';
export type { WorkspaceToolErrorCode } from './errors/index.js';
export { WorkspaceToolError } from './errors/index.js';
export type {
  EditFileToolOptions,
  FileSystemRequest,
  ReadFileToolOptions,
  WorkspaceFileSystem,
  WriteFileToolOptions,
} from './files/index.js';
export {
  createEditFileTool,
  createReadFileTool,
  createWriteFileTool,
  EDIT_FILE_MAX_BYTES,
  READ_FILE_MAX_BYTES,
} from './files/index.js';
export type {
  DenyList,
  DenyListOptions,
  FileAccess,
  OpenedFile,
  WorkspaceEntry,
  WorkspaceGuardOptions,
} from './guard/index.js';
export {
  createDenyList,
  DEFAULT_ALLOWED_FILES,
  DEFAULT_DENIED_FILES,
  DEFAULT_DENY_LIST,
  WorkspaceGuard,
} from './guard/index.js';
export type { ListFilesToolOptions, SearchToolOptions } from './listing/index.js';
export { createListFilesTool, createSearchTool, LIST_FILES_PAGE_SIZE, SEARCH_PAGE_SIZE } from './listing/index.js';
export type { ApplyPatchToolOptions, PatchHunk, PatchLine, PatchOperation } from './patch/index.js';
export { applyHunks, createApplyPatchTool, parsePatch } from './patch/index.js';
export { preloadWorkspaceTools } from './preload-workspace-tools.js';
export type { WorkspaceEditTool, WorkspaceToolName, WorkspaceToolsOptions } from './workspace-tools.js';
export {
  createWorkspaceTools,
  READ_ONLY_WORKSPACE_TOOL_NAMES,
  WORKSPACE_TOOL_NAMES,
  workspaceToolsPlugin,
} from './workspace-tools.js';

/** The plugin with the default options: the CLI loads it from `plugins = ["@agentloop/workspace-tools"]`. */
export default workspaceToolsPlugin();

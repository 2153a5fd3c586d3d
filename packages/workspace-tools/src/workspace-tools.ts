import type { Tool, ToolPlugin } from '@agentloop/tools';
import { defineToolPlugin } from '@agentloop/tools';
import type { RunCommandToolOptions } from './command/index.js';
import { createRunCommandTool } from './command/index.js';
import type { WorkspaceFileSystem } from './files/index.js';
import { createEditFileTool, createReadFileTool, createWriteFileTool } from './files/index.js';
import type { WorkspaceGuardOptions } from './guard/index.js';
import { createListFilesTool, createSearchTool } from './listing/index.js';
import { createApplyPatchTool } from './patch/index.js';

/** The names of the workspace tools. */
export type WorkspaceToolName =
  | 'read_file'
  | 'write_file'
  | 'edit_file'
  | 'apply_patch'
  | 'list_files'
  | 'search'
  | 'run_command';

/** The tools that change part of a file: a model gets the one its family was trained on. */
export type WorkspaceEditTool = 'edit_file' | 'apply_patch';

/** Every workspace tool, in the order createWorkspaceTools returns them. */
export const WORKSPACE_TOOL_NAMES: readonly WorkspaceToolName[] = [
  'read_file',
  'write_file',
  'edit_file',
  'apply_patch',
  'list_files',
  'search',
  'run_command',
];

/** The read-only ones: what an agent that may only look gets. */
export const READ_ONLY_WORKSPACE_TOOL_NAMES: readonly WorkspaceToolName[] = ['read_file', 'list_files', 'search'];

/** How the workspace tools are confined and configured. */
export interface WorkspaceToolsOptions extends WorkspaceGuardOptions {
  /**
   * Which tools to create. Default: all of WORKSPACE_TOOL_NAMES but the edit tool `editTool` does not
   * choose, so that a model is not offered two ways to make the same change.
   */
  include?: readonly WorkspaceToolName[];
  /**
   * The tool that changes part of a file, when `include` is not given: `edit_file` (exact text
   * replacement, the default) or `apply_patch` (the patch format OpenAI's GPT-5 and codex models are
   * trained on). A provider's `capabilities.editTool` says which one its model's family prefers.
   */
  editTool?: WorkspaceEditTool | undefined;
  /** The most bytes of text one read_file call returns. Default: READ_FILE_MAX_BYTES (64 KiB). */
  maxReadBytes?: number;
  /**
   * Where read_file, write_file and edit_file read and write text once the guard has checked the file: an
   * editor's buffers (see WorkspaceFileSystem). Default: the disk. list_files and search read the disk.
   */
  fileSystem?: WorkspaceFileSystem | undefined;
  /** run_command's sandbox, timeouts, output cap, environment, shell, and `runner` (an editor's terminal). */
  command?: Omit<RunCommandToolOptions, keyof WorkspaceGuardOptions>;
}

/**
 * The workspace tools, confined to `root` (default: each call's workspace, the agent's `workspace`
 * option) by one guard: `read_file`, `write_file`, `edit_file` or `apply_patch` (see `editTool`),
 * `list_files`, `search` and `run_command`. Register them with an agent (`for (const tool of
 * createWorkspaceTools()) agent.registerTool(tool)`) or load workspaceToolsPlugin in a container. Throws a
 * TypeError for an unknown tool name, edit tool or sandbox mode.
 */
export function createWorkspaceTools(options: WorkspaceToolsOptions = {}): Tool[] {
  const guard: WorkspaceGuardOptions = { root: options.root, denyList: options.denyList, procfs: options.procfs };
  const editTool = options.editTool ?? 'edit_file';
  if (editTool !== 'edit_file' && editTool !== 'apply_patch') {
    throw new TypeError(`Unknown edit tool "${String(editTool)}"; use "edit_file" or "apply_patch".`);
  }
  const otherEditTool = editTool === 'edit_file' ? 'apply_patch' : 'edit_file';
  const include = new Set(options.include ?? WORKSPACE_TOOL_NAMES.filter((name) => name !== otherEditTool));
  const unknown = [...include].find((name) => !WORKSPACE_TOOL_NAMES.includes(name));
  if (unknown !== undefined) {
    throw new TypeError(`Unknown workspace tool "${unknown}"; the tools are ${WORKSPACE_TOOL_NAMES.join(', ')}.`);
  }
  const files = { ...guard, fileSystem: options.fileSystem };
  const create: Record<WorkspaceToolName, () => Tool> = {
    read_file: () =>
      createReadFileTool(options.maxReadBytes === undefined ? files : { ...files, maxBytes: options.maxReadBytes }),
    write_file: () => createWriteFileTool(files),
    edit_file: () => createEditFileTool(files),
    apply_patch: () => createApplyPatchTool(files),
    list_files: () => createListFilesTool(guard),
    search: () => createSearchTool(guard),
    run_command: () => createRunCommandTool({ ...guard, ...options.command }),
  };
  return WORKSPACE_TOOL_NAMES.filter((name) => include.has(name)).map((name) => create[name]());
}

/**
 * A plugin that provides the workspace tools, for `createContainer({ plugins })` and the CLI's
 * configuration. The package's default export is this plugin with the default options.
 */
export function workspaceToolsPlugin(options: WorkspaceToolsOptions = {}): ToolPlugin {
  return defineToolPlugin({ name: 'workspace-tools', tools: createWorkspaceTools(options) });
}

import type { Tool } from '@agentloop/core';
import type { CommandRunner, SandboxOptions, WorkspaceEditTool, WorkspaceFileSystem } from '@agentloop/workspace-tools';
import { createDenyList, createWorkspaceTools } from '@agentloop/workspace-tools';
import type { SessionSettings } from '../config/index.js';

/** An editor's buffers and terminals, which `agentloop acp` hands the tools where the editor offers them. */
export interface EditorTools {
  fileSystem?: WorkspaceFileSystem | undefined;
  runner?: CommandRunner | undefined;
}

/** How the command's workspace tools are set up. */
export interface WorkspaceToolsSetup {
  /** run_command's sandbox. */
  sandbox: SandboxOptions;
  /** An editor's buffers and terminals, under `agentloop acp`. */
  editor?: EditorTools | undefined;
  /** The tool that changes part of a file: the model family's (`capabilities.editTool`); absent: edit_file. */
  editTool?: WorkspaceEditTool | undefined;
}

/**
 * The tools the command gives its agent: @agentloop/workspace-tools, confined to the working directory,
 * with the deny-list of the configuration's `[tools]` table, run_command in `sandbox`, and the edit tool
 * the model's family is trained on (apply_patch for GPT-5 and codex, edit_file for the others). A refusal
 * tells the model how the user lets a file through, in the words of the CLI's configuration.
 */
export function workspaceTools(settings: Pick<SessionSettings, 'config'>, setup: WorkspaceToolsSetup): Tool[] {
  const editor = setup.editor ?? {};
  const denyList = createDenyList({
    ...settings.config.tools,
    howToAllow: (relativePath) =>
      `The user can allow it with allow = [${JSON.stringify(relativePath)}] under [tools] in their user configuration (agentloop config path shows where).`,
  });
  return createWorkspaceTools({
    denyList,
    fileSystem: editor.fileSystem,
    editTool: setup.editTool,
    command: { sandbox: setup.sandbox, runner: editor.runner },
  });
}

import type { Tool } from '@agentloop/core';
import type { CommandRunner, SandboxOptions, WorkspaceFileSystem } from '@agentloop/workspace-tools';
import { createDenyList, createWorkspaceTools } from '@agentloop/workspace-tools';
import type { SessionSettings } from '../config/index.js';

/** An editor's buffers and terminals, which `agentloop acp` hands the tools where the editor offers them. */
export interface EditorTools {
  fileSystem?: WorkspaceFileSystem | undefined;
  runner?: CommandRunner | undefined;
}

/**
 * The tools the command gives its agent: @agentloop/workspace-tools, confined to the working directory,
 * with the deny-list of the configuration's `[tools]` table and run_command in `sandbox`. A refusal tells
 * the model how the user lets a file through, in the words of the CLI's configuration.
 */
export function workspaceTools(
  settings: Pick<SessionSettings, 'config'>,
  sandbox: SandboxOptions,
  editor: EditorTools = {},
): Tool[] {
  const denyList = createDenyList({
    ...settings.config.tools,
    howToAllow: (relativePath) =>
      `The user can allow it with allow = [${JSON.stringify(relativePath)}] under [tools] in their user configuration (agentloop config path shows where).`,
  });
  return createWorkspaceTools({ denyList, fileSystem: editor.fileSystem, command: { sandbox, runner: editor.runner } });
}

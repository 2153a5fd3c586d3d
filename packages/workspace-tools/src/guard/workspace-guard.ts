import type { Dirent } from 'node:fs';
import { resolve } from 'node:path';
import type { ToolContext } from '@agentloop/tools';
import type { DenyList } from './deny-list.js';
import { DEFAULT_DENY_LIST } from './deny-list.js';
import type { FileAccess, OpenedFile } from './open-workspace-file.js';
import { openWorkspaceFile } from './open-workspace-file.js';
import { readWorkspaceDirectory } from './read-workspace-directory.js';
import type { WorkspaceEntry } from './workspace-path.js';
import { resolveWorkspacePath } from './workspace-path.js';

/** What every workspace tool is confined by. */
export interface WorkspaceGuardOptions {
  /**
   * The workspace directory. Default: each call's `context.workspace`, which is the agent's `workspace`
   * option (the process's working directory unless configured).
   */
  root?: string | undefined;
  /** Files never read, written or searched. Default: DEFAULT_DENY_LIST. */
  denyList?: DenyList | undefined;
  /**
   * Whether `/proc/self/fd` names an open file, so that an opened file is checked by what the kernel says
   * it is (Linux). Default: whether the platform is Linux. Tests turn it off to check the portable way.
   */
  procfs?: boolean | undefined;
}

/**
 * The workspace guard: every path a tool touches goes through it. It keeps a tool inside one workspace
 * directory (no `..`, no absolute path elsewhere, no `~`, no link that leads out, also one swapped in
 * between the check and the use), away from the files of the deny-list, and its writes out of `.git`.
 * Its methods throw a WorkspaceToolError the model sees as the tool's error result.
 */
export class WorkspaceGuard {
  /** The workspace directory, absolute. */
  readonly workspace: string;
  readonly denyList: DenyList;
  readonly #procfs: boolean | undefined;

  /** The guard of one tool call: `options.root`, else the call's workspace. */
  static forCall(options: WorkspaceGuardOptions, context: Pick<ToolContext, 'workspace'>): WorkspaceGuard {
    return new WorkspaceGuard(options.root ?? context.workspace, options);
  }

  constructor(workspace: string, options: Omit<WorkspaceGuardOptions, 'root'> = {}) {
    this.workspace = resolve(workspace);
    this.denyList = options.denyList ?? DEFAULT_DENY_LIST;
    this.#procfs = options.procfs;
  }

  /** Resolves a path the model gave, refusing one outside the workspace. */
  resolve(path: string): WorkspaceEntry {
    return resolveWorkspacePath(this.workspace, path);
  }

  /** Opens a regular file for reading or writing, checked again after it was opened. */
  openFile(path: string, access: FileAccess): Promise<OpenedFile> {
    return openWorkspaceFile(this.workspace, path, { denyList: this.denyList, access, procfs: this.#procfs });
  }

  /** The entries of a directory inside the workspace (`directory` absolute, `shown` for messages). */
  readDirectory(root: string, directory: string, shown: string): Promise<Dirent[]> {
    return readWorkspaceDirectory({ root, directory, shown, procfs: this.#procfs });
  }

  /** The deny pattern a workspace-relative path matches, or undefined. */
  denied(relativePath: string): string | undefined {
    return this.denyList.match(relativePath);
  }
}

import { AgentloopError } from '@agentloop/tools';

/** Why a workspace tool refused or failed a call; the model sees the code beside the message. */
export type WorkspaceToolErrorCode =
  /** The path cannot name a file: empty, a NUL byte. */
  | 'invalid_path'
  /** The path leads outside the workspace (`..`, an absolute path, `~`, a link). */
  | 'outside_workspace'
  /** The file is on the deny-list of files that hold secrets. */
  | 'denied_file'
  /** A write to git's internal files (`.git/...`). */
  | 'git_internals'
  /** A write to agentloop's project settings (`.agentloop/...`). */
  | 'agentloop_settings'
  /** A write to configuration that programs outside the agent act on (`.vscode`, `.envrc`, ...). */
  | 'host_config'
  /** A link on the way was swapped between the check of the path and its use. */
  | 'changed_while_opening'
  /** The path does not exist. */
  | 'not_found'
  /** The path is not what the tool works on: a directory for read_file, a FIFO, a device, a binary file. */
  | 'wrong_kind'
  /** The file is larger than the tool reads. */
  | 'too_large'
  /** edit_file's old text matched no time, or more than once; an apply_patch hunk matched nowhere. */
  | 'no_match'
  | 'ambiguous_match'
  /** apply_patch's patch is not in the `*** Begin Patch` format, or names a file twice. */
  | 'invalid_patch'
  /** The arguments contradict each other or the file (a line range past its end, old text equal to new). */
  | 'invalid_request'
  /** The program that owns the files (an editor, see WorkspaceFileSystem) could not read or write one. */
  | 'file_system_error';

/**
 * A workspace tool's failure, thrown from `execute`: the loop turns it into an error result the model
 * sees (`Tool "read_file" failed [outside_workspace]: ...`), so every message says what was wrong and
 * what to do instead.
 */
export class WorkspaceToolError extends AgentloopError<WorkspaceToolErrorCode> {
  constructor(message: string, code: WorkspaceToolErrorCode, cause?: unknown) {
    super(message, cause === undefined ? { code } : { code, cause });
  }
}

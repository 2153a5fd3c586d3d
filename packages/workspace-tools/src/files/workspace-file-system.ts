/** One read or write the file tools hand to a WorkspaceFileSystem. */
export interface FileSystemRequest {
  /** The file: absolute, links resolved, already checked by the workspace guard. */
  path: string;
  /** The tool call that reads or writes, so that an editor can show it beside the call. */
  toolCallId: string;
  /** Aborted when the call is cancelled. */
  signal: AbortSignal;
}

/**
 * Where `read_file`, `write_file` and `edit_file` read and write text when another program owns the files:
 * an editor that offers its buffers (the Agent Client Protocol's `fs/read_text_file` and
 * `fs/write_text_file`), so that the model sees unsaved changes and the editor sees the edits as it would
 * its user's. Without one, the tools use the disk.
 *
 * The workspace guard stays in force: each path is checked, and the file opened and checked on disk (inside
 * the workspace, not on the deny-list, a regular file, for writes not in `.git` and without other hard
 * links), before it is handed here; a file that is not on disk yet is created empty by that check, before
 * `writeTextFile`. What the guard cannot cover is a link swapped in between that check and the other
 * program's own open, since that program follows links as it likes.
 */
export interface WorkspaceFileSystem {
  /** The whole text of a file, as the other program has it. Rejects when it cannot be read. */
  readTextFile(request: FileSystemRequest): Promise<string>;
  /** Replaces the whole text of a file. Rejects when it cannot be written. */
  writeTextFile(request: FileSystemRequest & { content: string }): Promise<void>;
}

import type { ToolContext } from '@agentloop/tools';
import { WorkspaceToolError } from '../errors/index.js';
import type { WorkspaceEntry } from '../guard/index.js';
import type { WorkspaceFileSystem } from './workspace-file-system.js';

/** The call a read or write belongs to. */
type CallContext = Pick<ToolContext, 'signal' | 'toolCallId'>;

/**
 * Reads a file the guard has checked through the other program's file system. Its failure becomes a
 * WorkspaceToolError (`file_system_error`) naming the file; a cancel stays a cancel.
 */
export async function readThrough(
  fileSystem: WorkspaceFileSystem,
  path: string,
  entry: WorkspaceEntry,
  context: CallContext,
): Promise<string> {
  context.signal.throwIfAborted();
  try {
    return await fileSystem.readTextFile({ path: entry.real, toolCallId: context.toolCallId, signal: context.signal });
  } catch (error) {
    throw failure(error, context, `"${path}" could not be read through the editor`);
  }
}

/** Writes a file the guard has checked through the other program's file system (see readThrough). */
export async function writeThrough(
  fileSystem: WorkspaceFileSystem,
  path: string,
  entry: WorkspaceEntry,
  content: string,
  context: CallContext,
): Promise<void> {
  context.signal.throwIfAborted();
  try {
    await fileSystem.writeTextFile({
      path: entry.real,
      content,
      toolCallId: context.toolCallId,
      signal: context.signal,
    });
  } catch (error) {
    throw failure(error, context, `"${path}" could not be written through the editor`);
  }
}

function failure(error: unknown, context: CallContext, what: string): unknown {
  if (context.signal.aborted) return context.signal.reason;
  const reason = error instanceof Error ? error.message : String(error);
  return new WorkspaceToolError(`${what}: ${reason}`, 'file_system_error', error);
}

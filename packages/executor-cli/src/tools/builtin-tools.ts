import type { Tool } from '@agentloop/core';
import type { DenyList } from './deny-list.js';
import { createListFilesTool } from './list-files-tool.js';
import { createReadFileTool } from './read-file-tool.js';

/** The CLI's built-in tools: read-only, confined to the workspace, refusing what `denyList` names. */
export function createBuiltinTools(options: { denyList?: DenyList } = {}): readonly Tool[] {
  return [createReadFileTool(options), createListFilesTool(options)];
}

/** The built-in tools with the default deny-list. */
export const builtinTools: readonly Tool[] = createBuiltinTools();

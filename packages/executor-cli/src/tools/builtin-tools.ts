import type { Tool } from '@agentloop/core';
import { listFilesTool } from './list-files-tool.js';
import { readFileTool } from './read-file-tool.js';

/** The CLI's built-in tools: read-only, confined to the workspace. */
export const builtinTools: readonly Tool[] = [readFileTool, listFilesTool];

export { applyHunks } from './apply-hunks.js';
export type { ApplyPatchToolOptions } from './apply-patch-tool.js';
export { createApplyPatchTool } from './apply-patch-tool.js';
export type { PatchHunk, PatchLine, PatchOperation } from './parse-patch.js';
export { parsePatch } from './parse-patch.js';

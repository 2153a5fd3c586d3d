export type { EditFileToolOptions } from './edit-file-tool.js';
export { createEditFileTool, EDIT_FILE_MAX_BYTES, loadDiff } from './edit-file-tool.js';
export type { ReadFileToolOptions } from './read-file-tool.js';
export { createReadFileTool, READ_FILE_MAX_BYTES } from './read-file-tool.js';
export type { FileSystemRequest, WorkspaceFileSystem } from './workspace-file-system.js';
export type { WriteFileToolOptions } from './write-file-tool.js';
export { createWriteFileTool } from './write-file-tool.js';

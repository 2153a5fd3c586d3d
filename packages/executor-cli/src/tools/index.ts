export { builtinTools } from './builtin-tools.js';
export { LIST_FILES_MAX_ENTRIES, listFilesTool } from './list-files-tool.js';
export { READ_FILE_MAX_BYTES, readFileTool } from './read-file-tool.js';
export { workspacePath } from './workspace-path.js';

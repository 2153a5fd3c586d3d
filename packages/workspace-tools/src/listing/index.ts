export { ignoreLibrary, loadIgnore } from './gitignore-rules.js';
export type { ListFilesToolOptions } from './list-files-tool.js';
export { createListFilesTool, LIST_FILES_MAX_ENTRIES, LIST_FILES_PAGE_SIZE } from './list-files-tool.js';
export type { SearchToolOptions } from './search-tool.js';
export {
  createSearchTool,
  loadRe2,
  SEARCH_MAX_FILE_BYTES,
  SEARCH_MAX_FILES,
  SEARCH_MAX_MATCHES,
  SEARCH_PAGE_SIZE,
} from './search-tool.js';

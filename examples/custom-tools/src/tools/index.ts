export { calculatorTool } from './calculator-tool.js';
export { fileReadTool } from './file-read-tool.js';
export type { SearchBackend, SearchResult } from './web-search-tool.js';
export { WebSearchTool } from './web-search-tool.js';

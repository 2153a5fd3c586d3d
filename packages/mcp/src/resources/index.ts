export { capResourceText, DEFAULT_MAX_RESOURCE_BYTES, type ResourceTextWindow } from './cap-resource-text.js';
export type { McpResourceSummary, McpResourceTemplateSummary } from './mcp-resource.js';
export { toResourceSummary, toResourceTemplateSummary } from './mcp-resource.js';
export type { McpResourceContents } from './mcp-resource-contents.js';
export { resourceContentsText, resourceContentsValue, toResourceContents } from './mcp-resource-contents.js';
export type { ResourceReader } from './read-resource-tool.js';
export { READ_RESOURCE_TOOL_NAME, readResourceTool } from './read-resource-tool.js';
export { ResourceSubscriptions } from './resource-subscriptions.js';

export type { ToolContainer, ToolPlugin } from './define-tool-plugin.js';
export { defineToolPlugin, TOOL_TOKEN } from './define-tool-plugin.js';

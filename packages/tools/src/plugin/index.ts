export { defineToolPlugin, TOOL_TOKEN } from './define-tool-plugin.js';
export type { ToolContainer, ToolPlugin } from './define-tool-plugin.js';

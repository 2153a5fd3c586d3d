export type { McpPromptArgument, McpPromptMessage, McpPromptResult, McpPromptSummary } from './mcp-prompt.js';
export { promptInputText, toPromptResult, toPromptSummary } from './mcp-prompt.js';
export { parsePromptArguments } from './prompt-arguments.js';

export { subagentAnnotations } from './subagent-annotations.js';
export type { SubagentHostInit } from './subagent-parent.js';
export { isSubagentTool, markSubagentTool, runAsSubagentParent } from './subagent-parent.js';
export { SubagentRoutes } from './subagent-routes.js';
export type { AsToolOptions, SubagentQuestionMode } from './subagent-tool.js';
export { subagentTool } from './subagent-tool.js';

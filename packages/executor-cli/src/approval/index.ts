export type { ApprovalControl } from './approval-control.js';
export { modeOnlyApprovalControl } from './approval-control.js';
export type { SandboxCheck } from './tool-safety.js';
export { ToolSafety } from './tool-safety.js';

export { ApprovalGate, type ApprovalGrant, type GateVerdict } from './approval-gate.js';
export {
  APPROVAL_MODES,
  type ApprovalMode,
  type ApprovalPolicyOptions,
  type ApprovalRule,
  type ApprovalRuleAction,
  createApprovalPolicy,
  isApprovalMode,
} from './approval-mode.js';
export type {
  ApprovalAnswer,
  ApprovalChoice,
  ApprovalDecision,
  ApprovalKind,
  ApprovalPolicy,
  ApprovalRequest,
  SamplingApproval,
} from './approval-policy.js';
export { type ApprovalOption, resolveApproval } from './resolve-approval.js';

export {
  APPROVAL_REQUESTED_EVENT,
  APPROVAL_RESOLVED_EVENT,
  ELICITATION_REQUESTED_EVENT,
  ELICITATION_RESOLVED_EVENT,
  QUESTION_EVENT,
  RETRY_EVENT,
} from './agui/agui-event-mapper.js';
export type {
  AgentloopApprovalData,
  AgentloopDataTypes,
  AgentloopElicitationData,
  AgentloopGapData,
  AgentloopMessageMetadata,
  AgentloopQuestionData,
  AgentloopResultData,
  AgentloopRetryData,
  AgentloopSubagentQuestionData,
} from './ai-sdk/ui-message-chunk.js';
export type { ApprovalView } from './approvals/approval-view.js';
export { approvalView } from './approvals/approval-view.js';
export type { HttpErrorCode } from './errors/http-error.js';
export { HttpError } from './errors/http-error.js';
export type { AgentHandlerOptions } from './handler/agent-handler-options.js';
export type { AgentHandler } from './handler/create-agent-handler.js';
export { createAgentHandler } from './handler/create-agent-handler.js';
export type { PendingElicitation } from './runs/pending-elicitation.js';
export type { Principal } from './runs/principal.js';
export type { DetachReason, RunEnd, RunListener } from './runs/run-listener.js';
export type {
  CreateAgent,
  PendingApproval,
  PendingRunQuestion,
  RunAttachment,
  RunManagerOptions,
  RunSnapshot,
  StartRunOptions,
} from './runs/run-manager.js';
export { RunManager } from './runs/run-manager.js';

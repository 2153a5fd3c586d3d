import type { ApprovalChoice, ElicitationResult, SubagentStep } from '@agentloop/core';
import type { ApprovalView } from '../approvals/approval-view.js';
import type { RequestedElicitation } from '../runs/requested-elicitation.js';

// These types restate the part of the AI SDK's `UIMessageChunk` (package `ai` 6) that this server writes,
// so the route needs no `ai` at run time: `ai` and its provider packages would triple the package's
// install and cold import for a wire format of a dozen JSON shapes. The tests feed what the mapper makes
// to the real `ai` (typed as its `UIMessageChunk`, read back with `readUIMessageStream` and a real chat
// transport), so a drift from the SDK's format fails them.

/** Why a streamed response finished, in the AI SDK's words. */
export type UiFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** The `metadata` of the assistant message: which run wrote it, and when it ended, how and at what cost. */
export interface AgentloopMessageMetadata {
  /** The run that wrote (or continued) the message. */
  runId?: string;
  /** How the run ended: `task_completion`, `ask_question`, `converse`, `max_iterations`, `cancelled` or `error`. */
  exit?: string;
  /** Tokens the run used so far (all of it once `exit` is set). */
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
}

/** `data-agentloop-question`: the agent asked the user (`ask_question`); the next message answers it. */
export interface AgentloopQuestionData {
  question: string;
  /** Answers to offer as buttons (0 to 4); the user may type another. */
  suggestions: string[];
}

/**
 * `data-agentloop-subagent-question` (its part id is the request id): a sub-agent asks the user while the
 * run goes on; answer it with `POST /api/sessions/:id/questions/:requestId` and `{ answer }`.
 */
export interface AgentloopSubagentQuestionData {
  requestId: string;
  question: string;
  suggestions: string[];
  /** The sub-agent calls it came through. */
  path: readonly SubagentStep[];
}

/**
 * `data-agentloop-retry`: a model call failed and is tried again. With `discardOutput`, the text and
 * reasoning parts of the step before this part are void (the SDK cannot take them back); the retried
 * output comes in new parts after it.
 */
export interface AgentloopRetryData {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  discardOutput: boolean;
  /** The failure's code, e.g. `stream_broken`. */
  code: string;
}

/** `data-agentloop-result`: the agent finished the task (`task_completion`). */
export interface AgentloopResultData {
  /** The result: text, or a value of the run's `output` schema. */
  result: unknown;
  /** Files or other artifacts the agent names as its output. */
  artifacts: string[];
}

/**
 * `data-agentloop-approval`, one per approval request (its part id is the request id, so the resolved one
 * replaces it): what the approval screen shows. The agent's own calls also come as the SDK's
 * `tool-approval-request` on their tool part; a sub-agent's (`path` not empty) come only as this part and
 * are answered with `POST /api/sessions/:id/approvals/:requestId`, which also takes `allow-session`.
 */
export interface AgentloopApprovalData {
  requestId: string;
  toolCallId: string;
  /** The tool's name. */
  name: string;
  arguments: unknown;
  /** The command the call runs, for tools that run one. */
  command?: string;
  /** Why the policy asks. */
  reason: string;
  /** What the approval screen shows: an edit with its diff, a command, or another call, with a title. */
  view: ApprovalView;
  choices: readonly ApprovalChoice[];
  /** The sub-agent calls it came through; empty for the agent's own. */
  path: readonly SubagentStep[];
  /** How it was answered, once it was (`cancelled` when the run was). */
  decision?: ApprovalChoice | 'cancelled';
}

/**
 * `data-agentloop-elicitation`, one per request (its part id is the request id, so the resolved one
 * replaces it): a running tool asks the user for input (an MCP server's elicitation), a form to fill in
 * or a page to open. The response goes on while it waits (the tool call runs); answer it with
 * `POST /api/sessions/:id/elicitations/:requestId`.
 */
export interface AgentloopElicitationData extends RequestedElicitation {
  /** The sub-agent calls it came through; empty for the agent's own. */
  path: readonly SubagentStep[];
  /** When it is cancelled unless answered (ISO 8601). */
  expiresAt?: string;
  /** How it was answered, once it was (`cancel` also when it timed out or the run was cancelled). */
  action?: ElicitationResult['action'];
}

/**
 * `data-agentloop-gap`: a continued response (the one that answers an approval) lacks some of the run's
 * events, dropped while no response was attached (the server keeps only the last `maxBufferedEvents`).
 * The message it continues misses part of the run: reload the conversation from
 * `GET /api/chat/:id/messages`, which reads it from the session store.
 */
export interface AgentloopGapData {
  /** How many of the run's events this response never got. */
  droppedEvents: number;
  /** What happened and what to do, for a person. */
  message: string;
}

/**
 * The data parts this server writes, by name (the part's `type` is `data-` and the name): a chat typed
 * `UIMessage<AgentloopMessageMetadata, AgentloopDataTypes>` reads them typed. (A type, not an interface,
 * so that it fits the SDK's `UIDataTypes`.)
 */
export type AgentloopDataTypes = {
  'agentloop-question': AgentloopQuestionData;
  'agentloop-result': AgentloopResultData;
  'agentloop-approval': AgentloopApprovalData;
  'agentloop-subagent-question': AgentloopSubagentQuestionData;
  'agentloop-retry': AgentloopRetryData;
  'agentloop-elicitation': AgentloopElicitationData;
  'agentloop-gap': AgentloopGapData;
};

/** One chunk of an AI SDK 6 UI message stream, as this server writes them. */
export type UiMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: AgentloopMessageMetadata }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'data-agentloop-question'; id?: string; data: AgentloopQuestionData }
  | { type: 'data-agentloop-result'; id?: string; data: AgentloopResultData }
  | { type: 'data-agentloop-approval'; id: string; data: AgentloopApprovalData }
  | { type: 'data-agentloop-subagent-question'; id: string; data: AgentloopSubagentQuestionData }
  | { type: 'data-agentloop-retry'; data: AgentloopRetryData }
  | { type: 'data-agentloop-elicitation'; id: string; data: AgentloopElicitationData }
  | { type: 'data-agentloop-gap'; data: AgentloopGapData }
  | { type: 'message-metadata'; messageMetadata: AgentloopMessageMetadata }
  | { type: 'error'; errorText: string }
  | { type: 'abort'; reason?: string }
  | { type: 'finish'; finishReason?: UiFinishReason; messageMetadata?: AgentloopMessageMetadata };

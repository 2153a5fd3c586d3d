import type { Message } from '@agentloop/memory';
import type { AgentloopError, AskQuestionPayload, ConversePayload, TaskCompletionPayload } from '@agentloop/tools';
import type { Usage } from '../provider/index.js';

/** How a run ended: one of the loop-control tools, a limit, a cancel or an error. */
export type AgentExit = 'task_completion' | 'ask_question' | 'converse' | 'max_iterations' | 'cancelled' | 'error';

/** The payload of the exit tool, by exit. */
export interface AgentExitPayloadMap {
  task_completion: TaskCompletionPayload;
  ask_question: AskQuestionPayload;
  converse: ConversePayload;
  max_iterations: undefined;
  cancelled: undefined;
  error: undefined;
}

interface AgentResultBase {
  /** Token usage of the whole run. */
  usage: Usage;
  /** How many model calls the run made. */
  iterations: number;
  /** The messages this run added to the conversation, the input first. */
  messages: Message[];
  /** Wall time of the run in milliseconds. */
  durationMs: number;
}

/** What a run produced. Narrow on `exit` to get a typed `payload` (and, for `error` and `cancelled`, `error`). */
export type AgentResult = {
  [Exit in AgentExit]: AgentResultBase & {
    exit: Exit;
    /** The exit tool's arguments (undefined unless a loop-control tool ended the run). */
    payload: AgentExitPayloadMap[Exit];
  } & (Exit extends 'error' | 'cancelled'
      ? {
          /** What failed (for `cancelled`, the cancel and its reason). */
          error: AgentloopError;
        }
      : { error?: undefined });
}[AgentExit];

import type { SessionGrant } from './session-grant.js';

/** An approval request a run waits on: what `state` shows, and the awakeable `answer` resolves. */
export interface PendingApproval {
  /** The id `answer` names. */
  requestId: string;
  /** The Restate awakeable the run waits on; Restate's API resolves it too (`/restate/awakeables/<id>/resolve`). */
  awakeableId: string;
  /** The tool call it is about. */
  toolCallId?: string;
  /** The tool. */
  name?: string;
  /** The call's arguments. */
  arguments?: unknown;
  /** The command, for a tool that runs one. */
  command?: string;
  /** Why the policy asks. */
  reason?: string;
  /** The answers it takes. */
  choices?: readonly string[];
}

/** The question a run ended with (`ask_question`), which `answer` (or the next `run`) answers. */
export interface PendingDurableQuestion {
  /** The id `answer` names: the invocation id of the run that asked. */
  requestId: string;
  /** The question. */
  question: string;
  /** Answers the user can pick from. */
  suggestions?: string[];
}

/** The state keys of a durable agent's Virtual Object, beside the session record (`session`). */
export const STATE = {
  /** The run going on: its invocation id, for `cancel`. */
  run: 'run',
  /** The approval requests the run waits on, by request id. */
  approvals: 'approvals',
  /** The grants given with `allow-session`. */
  grants: 'grants',
  /** The question the last run ended with. */
  question: 'question',
} as const;

/** What the run going on writes under `STATE.run`. */
export interface RunningRecord {
  invocationId: string;
}

export type PendingApprovals = Record<string, PendingApproval>;
export type Grants = SessionGrant[];

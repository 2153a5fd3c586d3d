import type { Agent, AgentEvent, AgentEventMap } from '@agentloop/core';
import type { PendingElicitation } from './pending-elicitation.js';
import type { RunListener } from './run-listener.js';

/** A tool call waiting for the user's approval, as `GET /api/sessions/:id` shows it. */
export interface PendingApproval {
  requestId: string;
  toolCallId: string;
  /** The tool's name. */
  name: string;
  arguments: unknown;
  command?: string;
  /** Why the policy asks. */
  reason: string;
  choices: readonly string[];
  /** The sub-agent calls it came through, when a sub-agent asked; empty for the agent's own. */
  path: readonly { toolName: string; toolCallId: string }[];
  /** When it is denied unless answered (ms since the epoch). */
  expiresAt: number;
}

/** A sub-agent's question waiting for the user (answered by request id, like an approval). */
export interface PendingRunQuestion {
  requestId: string;
  question: string;
  suggestions?: string[];
  path: readonly { toolName: string; toolCallId: string }[];
}

/** What a running session waits on. */
export interface RunSnapshot {
  runId: string;
  sessionId: string;
  principalId: string;
  startedAt: Date;
  /**
   * The user's message that started the run. The session store has it only once the run commits its
   * turn, so a page that reloads mid-run shows it from here.
   */
  input: string;
  approvals: PendingApproval[];
  questions: PendingRunQuestion[];
  /** Tools' requests for the user's input (MCP servers' elicitations), the sub-agents' included. */
  elicitations: PendingElicitation[];
}

/** One run of a session: who listens, what it keeps for them, and what it waits on. */
export class ActiveRun {
  readonly startedAt = new Date();
  readonly controller = new AbortController();
  readonly listeners = new Set<RunListener>();
  readonly backlog: AgentEvent[] = [];
  /** Events dropped from the backlog since a listener last attached. */
  droppedEvents = 0;
  readonly approvals = new Map<string, { approval: PendingApproval; timer: ReturnType<typeof setTimeout> }>();
  readonly questions = new Map<string, PendingRunQuestion>();
  readonly elicitations = new Map<string, { elicitation: PendingElicitation; timer: ReturnType<typeof setTimeout> }>();
  /** Approval requests answered from the session's grants: their events reach no client. */
  readonly granted = new Set<string>();
  agent: Agent | undefined;
  ended: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    readonly sessionId: string,
    readonly principalId: string,
    readonly input: string,
  ) {}
}

/** What the run waits on, as `RunManager.snapshot` and `GET /api/sessions/:id` give it. */
export function toSnapshot(run: ActiveRun): RunSnapshot {
  return {
    runId: run.id,
    sessionId: run.sessionId,
    principalId: run.principalId,
    startedAt: run.startedAt,
    input: run.input,
    approvals: [...run.approvals.values()].map((pending) => pending.approval),
    questions: [...run.questions.values()],
    elicitations: [...run.elicitations.values()].map((pending) => pending.elicitation),
  };
}

/** An approval request as the run keeps it while it waits, denied at `expiresAt` unless answered. */
export function toPendingApproval(
  event: AgentEventMap['approval-requested'],
  path: PendingApproval['path'],
  timeoutMs: number,
): PendingApproval {
  return {
    requestId: event.requestId,
    toolCallId: event.toolCallId,
    name: event.name,
    arguments: event.arguments,
    ...(event.command === undefined ? {} : { command: event.command }),
    reason: event.reason,
    choices: event.choices,
    path,
    expiresAt: Date.now() + timeoutMs,
  };
}

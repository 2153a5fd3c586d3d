import { randomUUID } from 'node:crypto';
import type { Agent, AgentEvent, AgentEventMap, ApprovalAnswer, ElicitationResult } from '@agentloop/core';
import { AgentloopError } from '@agentloop/core';
import { HttpError } from '../errors/http-error.js';
import { ActiveRun, type RunSnapshot, toPendingApproval, toSnapshot } from './active-run.js';
import { noPendingElicitation, toElicitationHttpError, toPendingElicitation } from './pending-elicitation.js';
import type { Principal } from './principal.js';
import type { DetachReason, RunEnd, RunListener } from './run-listener.js';
import { SessionGrants } from './session-grants.js';

export type { PendingApproval, PendingRunQuestion, RunSnapshot } from './active-run.js';

/** Builds the agent of a session; the handler's `createAgent` option. */
export type CreateAgent = (setup: { sessionId: string; principal: Principal }) => Agent | Promise<Agent>;

/** Options of a RunManager. */
export interface RunManagerOptions {
  createAgent: CreateAgent;
  /**
   * How long an approval waits for its answer before it is denied, and an elicitation before it is
   * cancelled. Default 5 minutes.
   */
  approvalTimeoutMs?: number;
  /** What a dropped response does to its run when no other listener is attached. Default `cancel`. */
  onDisconnect?: 'cancel' | 'continue';
  /**
   * The most events a run keeps while no listener is attached, for the next one to attach; past it the
   * oldest are dropped (`RunAttachment.droppedEvents` counts them). Default 1000.
   */
  maxBufferedEvents?: number;
}

/** Options of `RunManager.start`. */
export interface StartRunOptions {
  sessionId: string;
  principal: Principal;
  /** The user's new message. */
  input: string;
  /** The run's id, when the client chose one (AG-UI's `runId`). Default: a random UUID. */
  runId?: string;
  /** Attached before the run starts, so it sees every event. */
  listener?: RunListener;
}

/** A listener's handle: `detach` stops delivery; with `dropped` it may cancel the run (`onDisconnect`). */
export interface RunAttachment {
  readonly runId: string;
  /**
   * How many of the events that came while no listener was attached were dropped before this one
   * attached (0: it got them all). A client that must show the whole run rebuilds it from
   * `GET /api/sessions/:id`: the conversation as saved so far, and what the run waits on.
   */
  readonly droppedEvents: number;
  detach(reason: DetachReason): void;
}

const DEFAULT_APPROVAL_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_MAX_BUFFERED_EVENTS = 1000;

/**
 * Runs agents for the HTTP routes, one run at a time per session, apart from any one response: a run
 * outlives the response that started it, and its events go to whatever listeners are attached (events
 * that come while none is are kept, the last `maxBufferedEvents` of them, and handed to the next one that
 * attaches).
 *
 * How a protocol route uses it:
 * - `start({ sessionId, principal, input, runId, listener })` starts a run with the listener attached
 *   from its first event; it rejects with a 409 HttpError (`session_busy`, naming the busy run in
 *   `details.runId`) while the session runs.
 * - `attach(sessionId, listener)` attaches to the session's running run (undefined when none runs);
 *   `detach('done')` when the response ends on purpose (the AI SDK's stream at an approval request),
 *   `detach('dropped')` when the client went away: with `onDisconnect: 'cancel'` and no other listener
 *   left, that cancels the run.
 * - `answerApproval(sessionId, requestId, answer)`, `answerQuestion(sessionId, requestId, answer)` and
 *   `answerElicitation(sessionId, requestId, result)` answer what the run waits on; `cancel(sessionId)`
 *   cancels it; `snapshot(sessionId)` says what it waits on. An approval nobody answers within
 *   `approvalTimeoutMs` is denied, an elicitation cancelled.
 *
 * The caller checks that the principal owns the session; the manager trusts it.
 */
export class RunManager {
  readonly #createAgent: CreateAgent;
  readonly #approvalTimeoutMs: number;
  readonly #onDisconnect: 'cancel' | 'continue';
  readonly #maxBufferedEvents: number;
  readonly #runs = new Map<string, ActiveRun>();
  readonly #grants = new SessionGrants();

  constructor(options: RunManagerOptions) {
    this.#createAgent = options.createAgent;
    this.#approvalTimeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.#onDisconnect = options.onDisconnect ?? 'cancel';
    const maxBufferedEvents = options.maxBufferedEvents ?? DEFAULT_MAX_BUFFERED_EVENTS;
    if (!Number.isInteger(maxBufferedEvents) || maxBufferedEvents < 0) {
      throw new TypeError(
        `maxBufferedEvents must be a whole number of events, 0 or more; got ${JSON.stringify(maxBufferedEvents)}.`,
      );
    }
    this.#maxBufferedEvents = maxBufferedEvents;
  }

  /** How long an approval waits for its answer before it is denied, in ms. */
  get approvalTimeoutMs(): number {
    return this.#approvalTimeoutMs;
  }

  /** How many runs are going. */
  get runCount(): number {
    return this.#runs.size;
  }

  /** How many listeners are attached, over all runs. */
  get listenerCount(): number {
    let count = 0;
    for (const run of this.#runs.values()) count += run.listeners.size;
    return count;
  }

  /** The id of the session's running run, or undefined. */
  runningRunId(sessionId: string): string | undefined {
    return this.#runs.get(sessionId)?.id;
  }

  /**
   * Starts a run of the session's agent on `input`; resolves with the run's id once it started. Rejects
   * with a 409 HttpError while the session runs, and with a 503 one when `createAgent` fails (the
   * listener's `onEnd` is not called then).
   */
  async start(options: StartRunOptions): Promise<RunAttachment> {
    const busy = this.#runs.get(options.sessionId);
    if (busy) {
      throw new HttpError(
        `Session ${options.sessionId} is busy with run ${busy.id}: wait for it to end, or cancel it with POST /api/sessions/${options.sessionId}/cancel.`,
        { code: 'session_busy', statusCode: 409, details: { runId: busy.id, sessionId: options.sessionId } },
      );
    }
    // The slot is taken before the first await, so two requests at once cannot both start a run.
    const run = new ActiveRun(options.runId ?? randomUUID(), options.sessionId, options.principal.id, options.input);
    this.#runs.set(options.sessionId, run);
    const attachment = options.listener ? this.#attachTo(run, options.listener) : undefined;
    let agent: Agent;
    try {
      agent = await this.#createAgent({ sessionId: options.sessionId, principal: options.principal });
    } catch (error) {
      this.#runs.delete(options.sessionId);
      throw new HttpError(`The agent for session ${options.sessionId} could not be created.`, {
        code: 'agent_unavailable',
        statusCode: 503,
        cause: error,
      });
    }
    this.#drive(run, agent, options.input);
    return attachment ?? { runId: run.id, droppedEvents: 0, detach: () => {} };
  }

  /** Attaches a listener to the session's running run; undefined when none runs. */
  attach(sessionId: string, listener: RunListener): RunAttachment | undefined {
    const run = this.#runs.get(sessionId);
    return run ? this.#attachTo(run, listener) : undefined;
  }

  /** Answers a pending approval of the session's run; false when it has none with this id. */
  answerApproval(sessionId: string, requestId: string, answer: ApprovalAnswer): boolean {
    const run = this.#runs.get(sessionId);
    const pending = run?.approvals.get(requestId);
    if (!run?.agent || !pending) return false;
    if (
      answer.decision === 'allow-session' &&
      answer.commandPrefix === undefined &&
      pending.approval.path.length === 0
    ) {
      this.#grants.grant(sessionId, pending.approval.name);
    }
    run.agent.answerApproval(requestId, answer);
    return true;
  }

  /** Answers a sub-agent's pending question; false when the session's run has none with this id. */
  answerQuestion(sessionId: string, requestId: string, answer: string): boolean {
    const run = this.#runs.get(sessionId);
    if (!run?.agent?.answerQuestion || !run.questions.has(requestId)) return false;
    run.questions.delete(requestId);
    run.agent.answerQuestion(requestId, answer);
    return true;
  }

  /**
   * Answers a tool's pending request for the user's input (an MCP server's elicitation) of the session's
   * run; a form's empty fields take the schema's defaults. Throws a 404 HttpError when no such request
   * waits (answered, timed out, its call or run ended), and a 400 one for an accepted form that leaves a
   * required field empty, naming it.
   */
  answerElicitation(sessionId: string, requestId: string, result: ElicitationResult): void {
    const run = this.#runs.get(sessionId);
    const pending = run?.elicitations.get(requestId);
    if (!run?.agent?.answerElicitation || !pending) throw noPendingElicitation(sessionId, requestId);
    try {
      run.agent.answerElicitation(requestId, result);
    } catch (error) {
      // The agent no longer waits for it (its call ended just now): neither does the manager.
      if (AgentloopError.isInstance(error) && error.code === 'unknown_elicitation') {
        clearTimeout(pending.timer);
        run.elicitations.delete(requestId);
      }
      throw toElicitationHttpError(error, sessionId, requestId);
    }
    clearTimeout(pending.timer);
    run.elicitations.delete(requestId);
  }

  /** Cancels the session's run; false when none runs. The run ends with `exit: 'cancelled'`. */
  cancel(sessionId: string, reason = 'cancelled by the user'): boolean {
    const run = this.#runs.get(sessionId);
    if (!run) return false;
    run.controller.abort(reason);
    return true;
  }

  /** What the session's run waits on; undefined when none runs. */
  snapshot(sessionId: string): RunSnapshot | undefined {
    const run = this.#runs.get(sessionId);
    return run ? toSnapshot(run) : undefined;
  }

  /**
   * The runs going on for the principal's sessions, the newest first: a session that runs before its
   * first commit is in no store's list yet.
   */
  snapshotsOf(principalId: string): RunSnapshot[] {
    return [...this.#runs.values()]
      .filter((run) => run.principalId === principalId)
      .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime())
      .map(toSnapshot);
  }

  /** Cancels every run and resolves once they all ended (a server shutting down). */
  async close(): Promise<void> {
    const ending = [...this.#runs.values()].map((run) => {
      run.controller.abort('the server is shutting down');
      return run.ended;
    });
    await Promise.all(ending);
  }

  #attachTo(run: ActiveRun, listener: RunListener): RunAttachment {
    run.listeners.add(listener);
    // Events that came while nobody listened go to this listener first, in order.
    const backlog = run.backlog.splice(0);
    const droppedEvents = run.droppedEvents;
    run.droppedEvents = 0;
    for (const event of backlog) deliver(listener, event);
    let attached = true;
    return {
      runId: run.id,
      droppedEvents,
      detach: (reason) => {
        if (!attached) return;
        attached = false;
        run.listeners.delete(listener);
        if (reason === 'dropped' && this.#onDisconnect === 'cancel' && run.listeners.size === 0) {
          run.controller.abort('the client disconnected');
        }
      },
    };
  }

  #drive(run: ActiveRun, agent: Agent, input: string): void {
    run.agent = agent;
    // The agent refuses an approval or a sub-agent's question that nothing listens to; these listeners
    // say the manager answers them, and run before the catch-all one, so what is pending is known by the
    // time a client sees the event.
    const onApproval = (event: AgentEventMap['approval-requested']) => this.#track(run, agent, event);
    const onQuestion = (event: AgentEventMap['subagent-question']) => this.#track(run, agent, event);
    const onElicitation = (event: AgentEventMap['elicitation-requested']) => this.#track(run, agent, event);
    agent.on('approval-requested', onApproval).on('subagent-question', onQuestion);
    // An agent that cannot take an answer is left without the listener, so it declines its tools' requests.
    if (agent.answerElicitation) agent.on('elicitation-requested', onElicitation);
    const stopListening = agent.onAny((event) => {
      if (!TRACKED_BEFORE_ANY.has(event.type)) this.#track(run, agent, event);
      if (isGranted(run, event)) return;
      if (run.listeners.size === 0) this.#buffer(run, event);
      for (const listener of run.listeners) deliver(listener, event);
    });
    const finish = (end: RunEnd) => {
      stopListening();
      agent.off('approval-requested', onApproval).off('subagent-question', onQuestion);
      if (agent.answerElicitation) agent.off('elicitation-requested', onElicitation);
      for (const pending of run.approvals.values()) clearTimeout(pending.timer);
      for (const pending of run.elicitations.values()) clearTimeout(pending.timer);
      run.approvals.clear();
      run.elicitations.clear();
      run.questions.clear();
      this.#runs.delete(run.sessionId);
      for (const listener of [...run.listeners]) {
        try {
          listener.onEnd(end);
        } catch {
          // A listener's failure is its response's, and must not keep the run from ending.
        }
      }
      run.listeners.clear();
      run.backlog.length = 0;
      run.droppedEvents = 0;
    };
    run.ended = agent
      .run(input, { signal: run.controller.signal })
      .then(
        (result) => ({ result, messages: [...agent.memory.messages()] }) as RunEnd,
        (error: unknown) => ({ error }) as RunEnd,
      )
      .then(async (end) => {
        await closeAgentSession(agent);
        finish(end);
      });
  }

  /**
   * Keeps an event for the next listener. A run nobody follows (a dropped response with `onDisconnect:
   * 'continue'`) could otherwise hold every event of a long run; past the bound the oldest go, which
   * loses nothing a client cannot read back: the conversation is in the session store, and what the run
   * waits on (approvals, questions) is tracked apart from the events, for `snapshot`.
   */
  #buffer(run: ActiveRun, event: AgentEvent): void {
    run.backlog.push(event);
    if (run.backlog.length > this.#maxBufferedEvents) {
      run.backlog.shift();
      run.droppedEvents += 1;
    }
  }

  #track(run: ActiveRun, agent: Agent, event: AgentEvent): void {
    const inner = event.type === 'subagent-event' ? event.event : event;
    const path = event.type === 'subagent-event' ? event.path : [];
    if (event.type === 'approval-requested' && this.#grants.allows(run.sessionId, event.name)) {
      // Allowed for the session in an earlier run: answered here, and no client sees the request.
      run.granted.add(event.requestId);
      agent.answerApproval(event.requestId, { decision: 'allow-session' });
    } else if (inner.type === 'approval-requested') {
      const timer = setTimeout(() => {
        run.approvals.delete(inner.requestId);
        agent.answerApproval(inner.requestId, {
          decision: 'deny',
          message: `Nobody answered the approval request within ${formatDuration(this.#approvalTimeoutMs)}, so the call was denied.`,
        });
      }, this.#approvalTimeoutMs);
      run.approvals.set(inner.requestId, { approval: toPendingApproval(inner, path, this.#approvalTimeoutMs), timer });
    } else if (inner.type === 'approval-resolved') {
      const pending = run.approvals.get(inner.requestId);
      if (pending) clearTimeout(pending.timer);
      run.approvals.delete(inner.requestId);
    } else if (inner.type === 'elicitation-requested') {
      const timer = setTimeout(() => {
        run.elicitations.delete(inner.requestId);
        try {
          agent.answerElicitation?.(inner.requestId, { action: 'cancel' });
        } catch {
          // Its call ended meanwhile: nothing waits for the answer any more.
        }
      }, this.#approvalTimeoutMs);
      const elicitation = toPendingElicitation(inner, path, Date.now() + this.#approvalTimeoutMs);
      run.elicitations.set(inner.requestId, { elicitation, timer });
    } else if (inner.type === 'elicitation-resolved') {
      const pending = run.elicitations.get(inner.requestId);
      if (pending) clearTimeout(pending.timer);
      run.elicitations.delete(inner.requestId);
    } else if (event.type === 'subagent-question') {
      run.questions.set(event.requestId, {
        requestId: event.requestId,
        question: event.question,
        ...(event.suggestions ? { suggestions: event.suggestions } : {}),
        path: event.path,
      });
    }
  }
}

/** Events tracked by their own listeners, which the agent counts to know that something answers them. */
const TRACKED_BEFORE_ANY = new Set<AgentEvent['type']>([
  'approval-requested',
  'subagent-question',
  'elicitation-requested',
]);

/** True for the request and resolution of an approval answered from the session's grants. */
function isGranted(run: ActiveRun, event: AgentEvent): boolean {
  if (event.type !== 'approval-requested' && event.type !== 'approval-resolved') return false;
  if (!run.granted.has(event.requestId)) return false;
  if (event.type === 'approval-resolved') run.granted.delete(event.requestId);
  return true;
}

function deliver(listener: RunListener, event: AgentEvent): void {
  try {
    listener.onEvent(event);
  } catch {
    // One response's failure must not break the run or the other responses.
  }
}

/** Gives the session's write lock up, so the next run's agent can open it. */
async function closeAgentSession(agent: Agent): Promise<void> {
  const closable = agent as Agent & { closeSession?: () => Promise<void> };
  try {
    await closable.closeSession?.();
  } catch {
    // The turn was committed (or reported in loop-end) already; a failed release leaves nothing to do here.
  }
}

function formatDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms % 1000 === 0) return `${ms / 1000} seconds`;
  return `${ms} ms`;
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { CancelledError } from '@agentloop/spec';
import type { AskQuestionPayload, ElicitationResult } from '@agentloop/tools';
import type { ApprovalAnswer } from '../approvals/index.js';
import type { AgentEvent, AgentEventSink, SubagentStep } from '../events/index.js';
import type { MetricsTotals } from '../tokens/metrics-totals.js';
import type { RunMetrics } from '../tokens/run-metrics.js';
import type { SubagentRoutes } from './subagent-routes.js';

/** What a sub-agent answers through: the child agent, as its parent's call sees it. */
export interface SubagentChild {
  answerApproval(requestId: string, answer: ApprovalAnswer): void;
  answerQuestion(requestId: string, answer: string): void;
  answerElicitation(requestId: string, result: ElicitationResult): void;
}

/** What a run lends the tool calls it makes, so that an agent called as a tool can report to it. */
export interface SubagentHostInit {
  /** Where the child's events go: the scope of the call that runs it. */
  events: AgentEventSink;
  routes: SubagentRoutes;
  /** Where a child's figures go (the call's, which adds them to the run's after it). */
  metrics: Pick<MetricsTotals, 'addNested'>;
}

// The link from a tool call to the run that made it travels with the call's async context, not through
// the tool's context object: that object belongs to @agentloop/tools, and only core's own asTool reads it.
const currentParent = new AsyncLocalStorage<SubagentParent>();

/** The run of the tool call going on in this async context, for an agent called as a tool; else undefined. */
export function subagentParent(): SubagentParent | undefined {
  return currentParent.getStore();
}

/**
 * Marks a tool made by `asTool`: only its calls run with a link to their run. On Node 20 the first
 * `AsyncLocalStorage.run` turns on a hook that every promise of the process pays for from then on, so a
 * run whose tools are no sub-agents must never enter one.
 */
const SUBAGENT_TOOL = Symbol('agentloop.subagentTool');

/** Marks `tool` as an agent called as a tool; returns it. */
export function markSubagentTool<T extends object>(tool: T): T {
  Object.defineProperty(tool, SUBAGENT_TOOL, { value: true });
  return tool;
}

/** True for a tool `asTool` made (its calls need their link to the run). */
export function isSubagentTool(tool: object | undefined): boolean {
  return tool !== undefined && (tool as { [SUBAGENT_TOOL]?: boolean })[SUBAGENT_TOOL] === true;
}

/** Runs one tool call of a run with its link to the run, for a sub-agent the call may start. */
export function runAsSubagentParent<Result>(
  host: SubagentHostInit,
  step: SubagentStep,
  run: () => Promise<Result>,
): Promise<Result> {
  const parent = new SubagentParent(host, step);
  return currentParent.run(parent, run).finally(() => parent.close());
}

/**
 * One tool call of a parent run, as the sub-agent it runs sees it: where the child's events, figures,
 * approval requests and questions go.
 */
export class SubagentParent {
  readonly step: SubagentStep;
  readonly #host: SubagentHostInit;
  /** Prefixes the ids of the child's requests, so that they are unique at the parent. */
  readonly #prefix: string;
  #nextQuestion = 1;
  /** The call ended: what its child still emits (a cancelled child winding down) is not passed on. */
  #closed = false;

  constructor(host: SubagentHostInit, step: SubagentStep) {
    this.#host = host;
    this.step = step;
    this.#prefix = `${step.toolCallId}/`;
  }

  /** True when something at the parent answers approval requests: only then may the child ask. */
  get answersApprovals(): boolean {
    return this.#host.events.listenerCount('approval-requested') > 0;
  }

  /** True when something at the parent answers tools' elicitations: only then may the child ask. */
  get answersElicitations(): boolean {
    return this.#host.events.listenerCount('elicitation-requested') > 0;
  }

  /** True when something at the parent answers sub-agents' questions. */
  get answersQuestions(): boolean {
    return this.#host.events.listenerCount('subagent-question') > 0;
  }

  /**
   * Emits a child's event at the parent, as a `subagent-event` whose path starts with this call. Approval
   * and elicitation ids get this call's prefix, and a request is routed back to `child`.
   */
  forward(event: AgentEvent, child: SubagentChild): void {
    // The parent's run may have ended with this call: its `loop-end` must stay its last event.
    if (this.#closed) return;
    const path = event.type === 'subagent-event' ? [this.step, ...event.path] : [this.step];
    let inner = event.type === 'subagent-event' ? event.event : event;
    if (inner.type === 'approval-requested' || inner.type === 'approval-resolved') {
      const childId = inner.requestId;
      const requestId = this.#prefix + childId;
      if (inner.type === 'approval-requested') {
        this.#host.routes.addApproval(requestId, (answer) => child.answerApproval(childId, answer));
      } else this.#host.routes.delete(requestId);
      inner = { ...inner, requestId };
    } else if (inner.type === 'elicitation-requested' || inner.type === 'elicitation-resolved') {
      const childId = inner.requestId;
      const requestId = this.#prefix + childId;
      if (inner.type === 'elicitation-requested') {
        this.#host.routes.addElicitation(requestId, (result) => child.answerElicitation(childId, result));
      } else this.#host.routes.delete(requestId);
      inner = { ...inner, requestId };
    }
    this.#host.events.emit({ type: 'subagent-event', path, event: inner });
  }

  /** Passes a grandchild's question up, under this call's prefix, routing its answer back to `child`. */
  forwardQuestion(question: SubagentQuestion, child: SubagentChild): void {
    if (this.#closed) return;
    const requestId = this.#prefix + question.requestId;
    this.#host.routes.addQuestion(requestId, (answer) => child.answerQuestion(question.requestId, answer));
    this.#host.events.emit({ ...question, path: [this.step, ...question.path], requestId });
  }

  /**
   * Asks the parent's user the child's question and resolves with the answer. Rejects with a
   * CancelledError when `signal` aborts first.
   */
  ask(payload: AskQuestionPayload, signal: AbortSignal): Promise<string> {
    const requestId = `${this.#prefix}question-${this.#nextQuestion++}`;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.#host.routes.delete(requestId);
        reject(new CancelledError(undefined, signal.reason));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#host.routes.addQuestion(requestId, (answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
      this.#host.events.emit({
        type: 'subagent-question',
        path: [this.step],
        requestId,
        question: payload.question,
        ...(payload.suggestions ? { suggestions: payload.suggestions } : {}),
      });
    });
  }

  /** Adds a finished child run's figures to the parent run's. */
  addMetrics(metrics: RunMetrics): void {
    this.#host.metrics.addNested(metrics);
  }

  /** The call ended: requests of its child that still wait can no longer be answered. */
  close(): void {
    this.#closed = true;
    this.#host.routes.deleteUnder(this.#prefix);
  }
}

/** A `subagent-question` event. */
type SubagentQuestion = Extract<AgentEvent, { type: 'subagent-question' }>;

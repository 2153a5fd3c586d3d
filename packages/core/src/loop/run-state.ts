import type { Memory } from '@agentloop/memory';
import type { PromptBuilder } from '@agentloop/prompts';
import type { Message } from '@agentloop/spec';
import { CancelledError, userMessage } from '@agentloop/spec';
import type { RegisteredTool, ToolRegistry } from '@agentloop/tools';
import type { ApprovalGate } from '../approvals/index.js';
import type { ContextGuard } from '../compaction/context-guard.js';
import type { AgentEventBus } from '../events/index.js';
import type { Journal } from '../journal/journal.js';
import type { ToolRequestsHost } from '../requests/tool-requests.js';
import type { SubagentRoutes } from '../subagents/index.js';
import { MetricsTotals } from '../tokens/metrics-totals.js';
import type { RunTracer } from '../tracing/run-tracer.js';
import type { AgentResult } from './agent-result.js';
import type { HistoryCheck } from './history-check.js';
import type { LoopSettings } from './loop-settings.js';
import { parallelToolCallsFor } from './loop-settings.js';
import type { RunTools } from './output-tool-view.js';
import { OutputToolView } from './output-tool-view.js';
import { RequestHistory } from './request-history.js';
import type { RunControl } from './run-control.js';
import type { ModelStep } from './tool-protocol.js';
import type { ToolStepContext } from './tool-step.js';

/**
 * What one run of the loop works with and does not change: the agent's settings (as the agent checked
 * them), its parts, the clock and ids.
 */
export interface LoopDependencies extends LoopSettings {
  tools: ToolRegistry;
  memory: Memory;
  prompts: PromptBuilder;
  events: AgentEventBus;
  /** task_completion of a run with an `output` schema: its result takes that schema. */
  taskCompletion?: RegisteredTool;
  /** Checks the history before each request (kept by the agent, so checked messages are not walked again). */
  historyCheck: HistoryCheck;
  sessionId: string;
  workspace: string;
  /**
   * The clock for durations measured inside a journal step (a model call's, a tool call's), recorded with
   * the step's result. The run's own start and end are read from the journal (`journal.now`).
   */
  now: () => number;
  /** Runs the effects that must replay the same way (see Journal). */
  journal: Journal;
  runId: string;
  /** The run's tracing seam; absent when tracing is off, so that the loop then does no tracing work. */
  tracer?: RunTracer;
  /** Asks the agent's approval policy before tool calls; absent when the agent has none (every call runs). */
  approvals?: ApprovalGate;
  /** Knows how full the context is, and compacts the memory before a request that would not fit. */
  context: ContextGuard;
  /** Where the agent sends answers meant for its sub-agents (agents it calls as tools). */
  subagentRoutes: SubagentRoutes;
  /** Answers tools' elicitation and sampling requests; absent: tools get neither. */
  requests?: ToolRequestsHost;
  /** The agent's figures over all its runs: the run's are added to them as it ends. */
  sessionMetrics: MetricsTotals;
  /**
   * Saves the run's turn in the agent's session, before `loop-end`; absent for an agent without a session.
   * Rejects with the store's error when the turn could not be saved: the run then ends with `error`.
   */
  saveTurn?: (result: AgentResult<unknown>) => Promise<void>;
}

/** A run in progress. */
export interface RunState {
  deps: LoopDependencies;
  control: RunControl;
  /** The tools the run offers: the agent's, or a view of them with a typed task_completion. */
  tools: RunTools;
  iterations: number;
  /** The run's figures: tokens, calls, times. */
  metrics: MetricsTotals;
  consecutiveWithoutTool: number;
  /** The history the run's requests send, read from the memory as it grows. */
  history: RequestHistory;
  /** The messages this run added, in order, less those a compaction replaced. */
  added: Message[];
  started: number;
  /** The step whose calls are in history still waiting for their results: whatever ends the run, they get one. */
  openStep: ModelStep | undefined;
  /** True once the wrap-up call was made. */
  wrappedUp: boolean;
  /** What the run's tool steps work with, made once for the run. */
  toolStep: ToolStepContext;
}

/** Announces the run and makes its state. */
export async function startRun(deps: LoopDependencies, control: RunControl, input: string): Promise<RunState> {
  deps.events.beginRun(deps.runId);
  deps.events.emit({ type: 'loop-start', runId: deps.runId, input });
  deps.tracer?.start(input, control.selection.provider);
  const started = await deps.journal.now();
  const metrics = new MetricsTotals();
  return {
    deps,
    control,
    tools: deps.taskCompletion ? new OutputToolView(deps.tools, deps.taskCompletion) : deps.tools,
    iterations: 0,
    metrics,
    consecutiveWithoutTool: 0,
    history: new RequestHistory(),
    added: [],
    started,
    openStep: undefined,
    wrappedUp: false,
    toolStep: {
      events: deps.events,
      signal: control.signal,
      sessionId: deps.sessionId,
      runId: deps.runId,
      workspace: deps.workspace,
      now: deps.now,
      journal: deps.journal,
      tracer: deps.tracer,
      approvals: deps.approvals,
      // A journal that replays by order needs the calls' steps made in one order: one call at a time.
      maxParallelTools:
        parallelToolCallsFor(deps, control.selection.provider) && deps.journal.replaysInOrder !== true
          ? deps.maxParallelTools
          : 1,
      callOptions: { maxResultChars: deps.maxToolResultChars, timeoutMs: deps.toolTimeoutMs },
      timing: metrics,
      subagents: { events: deps.events, routes: deps.subagentRoutes, metrics },
      requests: deps.requests,
      samplingUsage: { metrics, sessionMetrics: deps.sessionMetrics },
    },
  };
}

/** Adds messages to the memory and to the run's own list. */
export function append(run: RunState, ...messages: Message[]): void {
  if (messages.length === 0) return;
  run.deps.memory.append(...messages);
  run.added.push(...messages);
}

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new CancelledError(undefined, signal.reason);
}

/** Sends the input queued with `agent.send()`, as user messages. */
export function deliverQueuedInput(run: RunState): void {
  for (const text of run.control.takeQueuedInput()) {
    append(run, userMessage(text));
    run.deps.events.emit({ type: 'input-delivered', iteration: run.iterations + 1, text });
  }
}

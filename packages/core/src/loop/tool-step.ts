import { describeThrown } from '@agentloop/spec';
import type { LoopControlExit, RunToolCallOptions, ToolCallOutcome, ToolLookup } from '@agentloop/tools';
import { isLoopControlToolName, runToolCall } from '@agentloop/tools';
import { loopControlExit, taskCompletionWithOutputExit, toolCallFailure } from '@agentloop/tools/internal';
import type { ApprovalGate } from '../approvals/index.js';
import type { AgentEventBus, AgentEventSink } from '../events/index.js';
import type { Journal } from '../journal/journal.js';
import { JournalFailure } from '../journal/journal-failure.js';
import { runJournaled } from '../journal/journaled-step.js';
import type { SamplingSpend } from '../requests/sampling-spend.js';
import { type ToolRequestsHost, toolRequests } from '../requests/tool-requests.js';
import { isSubagentTool, runAsSubagentParent, type SubagentHostInit } from '../subagents/index.js';
import type { RunMetrics } from '../tokens/run-metrics.js';
import type { RunTracer } from '../tracing/run-tracer.js';
import { CANCELLED_RESULT } from './cancelled-result.js';
import { LoopToolContext } from './loop-tool-context.js';
import { recordToolCall, restoreToolCall, type ToolCallRun } from './recorded-tool-call.js';
import { runLimited } from './run-limited.js';
import { countSamplingUsage, type SamplingUsageTotals } from './sampling-usage.js';
import type { ToolCall } from './tool-protocol.js';

/** What the tool steps of a run work with: made once, when the run starts. */
export interface ToolStepContext {
  events: AgentEventBus;
  signal: AbortSignal;
  sessionId: string;
  runId: string;
  workspace: string;
  now: () => number;
  /** Runs each call as a step, so that a replayed run does not run it again. */
  journal: Journal;
  /** Asks the approval policy before each call that is not a loop-control call, when the agent has one. */
  approvals?: ApprovalGate | undefined;
  /** Traces each call, when tracing is on. */
  tracer?: RunTracer | undefined;
  /** The most calls running at once (1: one by one, in the model's order). */
  maxParallelTools: number;
  /**
   * How each call runs, in runToolCall's terms: `maxResultChars` is the agent's `maxToolResultChars`,
   * `timeoutMs` its `toolTimeoutMs` (a tool's own `timeoutMs` wins). Made once, not at every call.
   */
  callOptions: RunToolCallOptions;
  /** Where the durations of the run's calls add up, in milliseconds (calls that ran at once each count). */
  timing: { toolTimeMs: number };
  /** What an agent called as a tool reports to: the run's events, figures and answer routes. */
  subagents?: SubagentHostInit | undefined;
  /** Answers tools' requests for the user's input and for model completions (ToolContext's elicit and sample). */
  requests?: ToolRequestsHost | undefined;
  /** Where the tokens the calls' sampling requests spent are added. */
  samplingUsage: SamplingUsageTotals;
}

/** What changes from one response to the next. */
export interface ToolStep {
  iteration: number;
  /** The tools the step's calls may run. */
  tools: ToolLookup;
  /** When false (the XML protocol), only the first call runs and later ones are answered as not run. */
  allowMultipleCalls: boolean;
  /** True in a run's wrap-up step: only a loop-control call runs, the others are answered as not run. */
  loopControlOnly: boolean;
  /** True when task_completion's result has the run's output schema: its validated arguments are the payload. */
  outputResult: boolean;
}

/** The tool step's outcome: one per call, in call order, and the exit if a loop-control tool was called. */
export interface ToolStepResult {
  outcomes: ToolCallOutcome[];
  exit?: LoopControlExit<unknown>;
}

/**
 * Runs a response's tool calls. Ordinary calls run concurrently, at most `maxParallelTools` at once and
 * started in the model's order, calls of a `sequential` tool one after another; their results keep the
 * call order. A loop-control call runs after them and, when its arguments are valid, ends the run. Every call gets
 * exactly one outcome, also when it was invalid, failed, was cancelled or was not run, because providers
 * reject a history with a call that has no result.
 */
export async function runToolStep(
  context: ToolStepContext,
  step: ToolStep,
  calls: readonly ToolCall[],
): Promise<ToolStepResult> {
  const runnable = step.allowMultipleCalls ? calls : calls.slice(0, 1);
  const isControl = (call: ToolCall) => isLoopControlToolName(call.toolName) && call.problem === undefined;
  // Only the first loop-control call counts; one made beside it is answered as not run.
  const control = runnable.find(isControl);
  // The wrap-up step is for ending the turn: a model that starts other work there is not obeyed (a
  // loop-control call that cannot run still gets its error result).
  const ordinary = runnable.filter(
    (call) => !isControl(call) && !(step.loopControlOnly && !isLoopControlToolName(call.toolName)),
  );

  const outcomes = new Map<ToolCall, ToolCallOutcome>();
  await runOrdinary(context, step, ordinary, outcomes);

  let exit: LoopControlExit<unknown> | undefined;
  if (control && isLoopControlToolName(control.toolName)) {
    const outcome = await runGuarded(context, step, control);
    outcomes.set(control, outcome);
    if (outcome.status === 'ok') {
      exit =
        step.outputResult && control.toolName === 'task_completion'
          ? taskCompletionWithOutputExit(outcome.arguments)
          : loopControlExit(control.toolName, outcome.arguments);
    }
  }
  const inOrder = calls.map(
    (call, index) => outcomes.get(call) ?? notRun(context, step, call, notRunReason(step, index, call.toolName)),
  );
  return { outcomes: inOrder, ...(exit ? { exit } : {}) };
}

async function runOrdinary(
  context: ToolStepContext,
  step: ToolStep,
  calls: readonly ToolCall[],
  outcomes: Map<ToolCall, ToolCallOutcome>,
): Promise<void> {
  // One call, the common case, needs no scheduling.
  const [only] = calls;
  if (calls.length === 1 && only) {
    outcomes.set(only, await runGuarded(context, step, only));
    return;
  }
  await runLimited(calls, async (call) => outcomes.set(call, await runQueued(context, step, call)), {
    limit: context.maxParallelTools,
    exclusiveKey: (call) => (step.tools.get(call.toolName)?.tool.sequential === true ? call.toolName : undefined),
  });
}

// A call that waited for its turn while the run was cancelled never starts, and so gets no `tool-call`.
function runQueued(context: ToolStepContext, step: ToolStep, call: ToolCall): Promise<ToolCallOutcome> {
  if (!context.signal.aborted) return runGuarded(context, step, call);
  const outcome = toolCallFailure(call, 'cancelled', CANCELLED_RESULT);
  announce(context, callEvents(context, step.iteration, call), step.iteration, outcome, 0);
  return Promise.resolve(outcome);
}

/** Why a call of the step was not run; `index` is its place in the response. */
function notRunReason(step: ToolStep, index: number, toolName: string): string {
  if (!step.allowMultipleCalls && index > 0) {
    return 'Not run: only one tool call per response is allowed. Call this tool again in your next response.';
  }
  if (step.loopControlOnly && !isLoopControlToolName(toolName)) {
    return 'Not run: the turn reached its step limit, so only task_completion, ask_question or converse could run in this last step.';
  }
  return 'Not run: the turn ended before this call.';
}

/**
 * Where a call's events go: a scope of its own, so that calls running at once, or replayed from a journal
 * at once, number their events the same way whatever the timing.
 */
function callEvents(context: ToolStepContext, iteration: number, call: ToolCall): AgentEventSink {
  return context.events.scope(`tool:${iteration}:${call.toolCallId}`);
}

// runToolCall never throws, but the events and bookkeeping around it are code too: whatever fails, the
// call still gets its one result, because providers reject a history with an orphaned call.
async function runGuarded(context: ToolStepContext, step: ToolStep, call: ToolCall): Promise<ToolCallOutcome> {
  // With tracing on, the call runs inside its span, so that spans the tool makes are the span's children.
  const span = context.tracer?.toolCall(call, step.iteration);
  const events = callEvents(context, step.iteration, call);
  let outcome: ToolCallOutcome;
  try {
    outcome = await (span ? span.run(runOne, context, step, call, events) : runOne(context, step, call, events));
  } catch (error) {
    // The journal's own failure ends no call: the durable engine takes the run over.
    if (error instanceof JournalFailure) throw error;
    const reason = describeThrown(error);
    outcome = toolCallFailure(
      call,
      'not_run',
      `Failed inside agentloop (${reason}); the call may or may not have run.`,
    );
    announce(context, events, step.iteration, outcome, 0);
  }
  span?.end(outcome);
  return outcome;
}

async function runOne(
  context: ToolStepContext,
  step: ToolStep,
  call: ToolCall,
  events: AgentEventSink,
): Promise<ToolCallOutcome> {
  const { iteration } = step;
  events.emit({
    type: 'tool-call',
    iteration,
    toolCallId: call.toolCallId,
    name: call.toolName,
    arguments: call.arguments,
  });
  if (call.problem) {
    const outcome = toolCallFailure(
      call,
      call.problem.code,
      `Invalid call of tool "${call.toolName}": ${call.problem.message}`,
    );
    announce(context, events, iteration, outcome, 0);
    return outcome;
  }
  // Loop-control calls are never asked about, and an unknown tool needs no approval: runToolCall answers
  // it with the tools that exist.
  const { approvals } = context;
  const registered = approvals && !isLoopControlToolName(call.toolName) ? step.tools.get(call.toolName) : undefined;
  if (approvals && registered) {
    const verdict = await approvals.check({ ...context, events, iteration }, call, registered);
    if (!verdict.run) {
      const outcome = toolCallFailure(call, verdict.code, verdict.message);
      announce(context, events, iteration, outcome, 0);
      return outcome;
    }
  }
  // A loop-control call only checks its arguments: the same on replay, so it needs no journal step.
  const ran = isLoopControlToolName(call.toolName)
    ? await execute(context, step, call, events)
    : await runJournaled(context.journal, {
        name: `tool:${iteration}:${call.toolCallId}`,
        run: () => execute(context, step, call, events),
        record: recordToolCall,
        restore: restoreToolCall,
      });
  // An agent called as a tool spent tokens of its own: they are the run's too, replayed or not.
  for (const metrics of ran.subagentMetrics ?? []) context.subagents?.metrics.addNested(metrics);
  // So are the completions it asked for (an MCP server's sampling requests).
  if (ran.samplingSpent) {
    countSamplingUsage(
      context.samplingUsage,
      events,
      { iteration, toolCallId: call.toolCallId, name: call.toolName },
      ran.samplingSpent,
    );
  }
  announce(context, events, iteration, ran.outcome, ran.durationMs);
  return ran.outcome;
}

/** Runs the call (as an agent's parent when the tool is one), and measures it. */
async function execute(
  context: ToolStepContext,
  step: ToolStep,
  call: ToolCall,
  events: AgentEventSink,
): Promise<ToolCallRun> {
  const { iteration } = step;
  const started = context.now();
  // A tool abandoned on cancel may still report progress; it must not show up after the call ended.
  let settled = false;
  const { subagents, requests } = context;
  // What the call's sampling requests spend is kept with its result, so that a replay counts it as well.
  const samplingSpent: SamplingSpend[] = [];
  // elicit and sample belong to this call: an MCP server's request made during it reaches this run's user.
  const asking = requests
    ? toolRequests(requests, {
        ...context,
        events,
        iteration,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        samplingSpent,
      })
    : {};
  // A copy taken as the call ends: a request the call left running (it timed out) must not change the record.
  const spent = (): Pick<ToolCallRun, 'samplingSpent'> =>
    samplingSpent.length > 0 ? { samplingSpent: [...samplingSpent] } : {};
  const run = () =>
    runToolCall(
      step.tools,
      call,
      new LoopToolContext({
        signal: context.signal,
        sessionId: context.sessionId,
        workspace: context.workspace,
        runId: context.runId,
        iteration,
        toolCallId: call.toolCallId,
        reportProgress: (progress) => {
          if (settled || context.signal.aborted) return;
          events.emit({
            type: 'tool-progress',
            iteration,
            toolCallId: call.toolCallId,
            name: call.toolName,
            progress,
          });
        },
        ...asking,
      }),
      context.callOptions,
    );
  if (!subagents || !isSubagentTool(step.tools.get(call.toolName)?.tool)) {
    const outcome = await run();
    settled = true;
    return { outcome, durationMs: context.now() - started, ...spent() };
  }
  // The child's figures are kept with the call's result, so that a replay adds them to the run as well.
  const subagentMetrics: RunMetrics[] = [];
  const host = { ...subagents, events, metrics: { addNested: (metrics: RunMetrics) => subagentMetrics.push(metrics) } };
  const outcome = await runAsSubagentParent(host, { toolName: call.toolName, toolCallId: call.toolCallId }, run);
  settled = true;
  return { outcome, durationMs: context.now() - started, subagentMetrics, ...spent() };
}

function notRun(context: ToolStepContext, step: ToolStep, call: ToolCall, content: string): ToolCallOutcome {
  const outcome = toolCallFailure(call, 'not_run', content);
  announce(context, callEvents(context, step.iteration, call), step.iteration, outcome, 0);
  return outcome;
}

function announce(
  context: ToolStepContext,
  events: AgentEventSink,
  iteration: number,
  outcome: ToolCallOutcome,
  durationMs: number,
): void {
  context.timing.toolTimeMs += durationMs;
  const base = { iteration, toolCallId: outcome.toolCallId, name: outcome.toolName };
  if (outcome.status === 'ok') {
    events.emit({ type: 'tool-result', ...base, content: outcome.content, value: outcome.value, durationMs });
  } else {
    events.emit({
      type: 'tool-result-error',
      ...base,
      content: outcome.content,
      code: outcome.code,
      durationMs,
    });
  }
}

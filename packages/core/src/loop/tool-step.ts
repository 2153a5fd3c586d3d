import { describeThrown } from '@agentloop/spec';
import type { LoopControlExit, ToolCallOutcome, ToolLookup } from '@agentloop/tools';
import { isLoopControlToolName, runToolCall } from '@agentloop/tools';
import { loopControlExit, taskCompletionWithOutputExit, toolCallFailure } from '@agentloop/tools/internal';
import type { ApprovalGate } from '../approvals/index.js';
import type { AgentEventBus } from '../events/index.js';
import type { RunTracer } from '../tracing/run-tracer.js';
import { CANCELLED_RESULT } from './cancelled-result.js';
import { runLimited } from './run-limited.js';
import type { ToolCall } from './tool-protocol.js';

/** What the tool step needs from the run. */
export interface ToolStepContext {
  tools: ToolLookup;
  events: AgentEventBus;
  iteration: number;
  signal: AbortSignal;
  sessionId: string;
  workspace: string;
  now: () => number;
  /** Asks the approval policy before each call that is not a loop-control call, when the agent has one. */
  approvals?: ApprovalGate | undefined;
  /** Traces each call, when tracing is on. */
  tracer?: RunTracer | undefined;
  /** When false (the XML protocol), only the first call runs and later ones are answered as not run. */
  allowMultipleCalls: boolean;
  /** True in a run's wrap-up step: only a loop-control call runs, the others are answered as not run. */
  loopControlOnly?: boolean;
  /** The most calls running at once (1: one by one, in the model's order). Default: no limit. */
  maxParallelTools?: number;
  /** True when task_completion's result has the run's output schema: its validated arguments are the payload. */
  outputResult?: boolean;
  /** The longest result text sent to the model. */
  maxResultChars?: number;
  /** How long a tool may run unless it sets its own `timeoutMs`; see runToolCall. */
  toolTimeoutMs?: number;
  /** Where the step adds up the durations of its calls, in milliseconds (calls that ran at once each count). */
  timing?: { totalMs: number };
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
export async function runToolStep(context: ToolStepContext, calls: readonly ToolCall[]): Promise<ToolStepResult> {
  const runnable = context.allowMultipleCalls ? calls : calls.slice(0, 1);
  const isControl = (call: ToolCall) => isLoopControlToolName(call.toolName) && call.problem === undefined;
  // Only the first loop-control call counts; one made beside it is answered as not run.
  const control = runnable.find(isControl);
  // The wrap-up step is for ending the turn: a model that starts other work there is not obeyed (a
  // loop-control call that cannot run still gets its error result).
  const ordinary = runnable.filter(
    (call) => !isControl(call) && !(context.loopControlOnly && !isLoopControlToolName(call.toolName)),
  );

  const outcomes = new Map<ToolCall, ToolCallOutcome>();
  await runOrdinary(context, ordinary, outcomes);

  let exit: LoopControlExit<unknown> | undefined;
  if (control && isLoopControlToolName(control.toolName)) {
    const outcome = await runGuarded(context, control);
    outcomes.set(control, outcome);
    if (outcome.status === 'ok') {
      exit =
        context.outputResult && control.toolName === 'task_completion'
          ? taskCompletionWithOutputExit(outcome.arguments)
          : loopControlExit(control.toolName, outcome.arguments);
    }
  }
  const inOrder = calls.map(
    (call, index) => outcomes.get(call) ?? notRun(context, call, notRunReason(context, index, call.toolName)),
  );
  return { outcomes: inOrder, ...(exit ? { exit } : {}) };
}

async function runOrdinary(
  context: ToolStepContext,
  calls: readonly ToolCall[],
  outcomes: Map<ToolCall, ToolCallOutcome>,
): Promise<void> {
  // One call, the common case, needs no scheduling.
  const [only] = calls;
  if (calls.length === 1 && only) {
    outcomes.set(only, await runGuarded(context, only));
    return;
  }
  await runLimited(calls, async (call) => outcomes.set(call, await runQueued(context, call)), {
    limit: context.maxParallelTools ?? Number.POSITIVE_INFINITY,
    exclusiveKey: (call) => (context.tools.get(call.toolName)?.tool.sequential === true ? call.toolName : undefined),
  });
}

// A call that waited for its turn while the run was cancelled never starts, and so gets no `tool-call`.
function runQueued(context: ToolStepContext, call: ToolCall): Promise<ToolCallOutcome> {
  if (!context.signal.aborted) return runGuarded(context, call);
  const outcome = toolCallFailure(call, 'cancelled', CANCELLED_RESULT);
  announce(context, outcome, 0);
  return Promise.resolve(outcome);
}

/** Why a call of the step was not run; `index` is its place in the response. */
function notRunReason(context: ToolStepContext, index: number, toolName: string): string {
  if (!context.allowMultipleCalls && index > 0) {
    return 'Not run: only one tool call per response is allowed. Call this tool again in your next response.';
  }
  if (context.loopControlOnly && !isLoopControlToolName(toolName)) {
    return 'Not run: the turn reached its step limit, so only task_completion, ask_question or converse could run in this last step.';
  }
  return 'Not run: the turn ended before this call.';
}

// runToolCall never throws, but the events and bookkeeping around it are code too: whatever fails, the
// call still gets its one result, because providers reject a history with an orphaned call.
async function runGuarded(context: ToolStepContext, call: ToolCall): Promise<ToolCallOutcome> {
  // With tracing on, the call runs inside its span, so that spans the tool makes are the span's children.
  const span = context.tracer?.toolCall(call, context.iteration);
  let outcome: ToolCallOutcome;
  try {
    outcome = await (span ? span.run(runOne, context, call) : runOne(context, call));
  } catch (error) {
    const reason = describeThrown(error);
    outcome = notRun(context, call, `Failed inside agentloop (${reason}); the call may or may not have run.`);
  }
  span?.end(outcome);
  return outcome;
}

async function runOne(context: ToolStepContext, call: ToolCall): Promise<ToolCallOutcome> {
  const { events, iteration } = context;
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
    announce(context, outcome, 0);
    return outcome;
  }
  // Loop-control calls are never asked about, and an unknown tool needs no approval: runToolCall answers
  // it with the tools that exist.
  const { approvals } = context;
  const registered = approvals && !isLoopControlToolName(call.toolName) ? context.tools.get(call.toolName) : undefined;
  if (approvals && registered) {
    const verdict = await approvals.check(context, call, registered);
    if (!verdict.run) {
      const outcome = toolCallFailure(call, verdict.code, verdict.message);
      announce(context, outcome, 0);
      return outcome;
    }
  }
  const started = context.now();
  // A tool abandoned on cancel may still report progress; it must not show up after the call ended.
  let settled = false;
  const outcome = await runToolCall(
    context.tools,
    call,
    {
      signal: context.signal,
      sessionId: context.sessionId,
      workspace: context.workspace,
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
    },
    {
      ...(context.maxResultChars === undefined ? {} : { maxResultChars: context.maxResultChars }),
      ...(context.toolTimeoutMs === undefined ? {} : { timeoutMs: context.toolTimeoutMs }),
    },
  );
  settled = true;
  announce(context, outcome, context.now() - started);
  return outcome;
}

function notRun(context: ToolStepContext, call: ToolCall, content: string): ToolCallOutcome {
  const outcome = toolCallFailure(call, 'not_run', content);
  announce(context, outcome, 0);
  return outcome;
}

function announce(context: ToolStepContext, outcome: ToolCallOutcome, durationMs: number): void {
  if (context.timing) context.timing.totalMs += durationMs;
  const base = { iteration: context.iteration, toolCallId: outcome.toolCallId, name: outcome.toolName };
  if (outcome.status === 'ok') {
    context.events.emit({ type: 'tool-result', ...base, content: outcome.content, value: outcome.value, durationMs });
  } else {
    context.events.emit({
      type: 'tool-result-error',
      ...base,
      content: outcome.content,
      code: outcome.code,
      durationMs,
    });
  }
}

import { describeThrown } from '@agentloop/spec';
import type { LoopControlExit, ToolCallOutcome, ToolRegistry } from '@agentloop/tools';
import { isLoopControlToolName, loopControlExit, runToolCall } from '@agentloop/tools';
import type { AgentEventBus } from '../events/index.js';
import type { StepToolCall, ToolCallRecord } from './tool-protocol.js';

/** What the tool step needs from the run. */
export interface ToolStepContext {
  tools: ToolRegistry;
  events: AgentEventBus;
  iteration: number;
  signal: AbortSignal;
  sessionId: string;
  workspace: string;
  now: () => number;
  /** When false (the XML protocol), only the first call runs and later ones are answered as not run. */
  allowMultipleCalls: boolean;
  /** The longest result text sent to the model. */
  maxResultChars?: number;
  /** How long a tool may run unless it sets its own `timeoutMs`; see runToolCall. */
  toolTimeoutMs?: number;
}

/** The tool step's outcome: one record per call, in call order, and the exit if one was called. */
export interface ToolStepResult {
  records: ToolCallRecord[];
  exit?: LoopControlExit;
}

/**
 * Runs a response's tool calls. Ordinary calls run concurrently and their results keep the call order;
 * a loop-control call runs after them and, when its arguments are valid, ends the run. Every call gets
 * exactly one record, also when it was invalid, failed, was cancelled or was not run, because providers
 * reject a history with a call that has no result.
 */
export async function runToolStep(context: ToolStepContext, calls: readonly StepToolCall[]): Promise<ToolStepResult> {
  const runnable = context.allowMultipleCalls ? calls : calls.slice(0, 1);
  const isControl = (call: StepToolCall) => isLoopControlToolName(call.toolName) && call.invalid === undefined;
  // Only the first loop-control call counts; one made beside it is answered as not run.
  const control = runnable.find(isControl);
  const ordinary = runnable.filter((call) => !isControl(call));

  const records = new Map<StepToolCall, ToolCallRecord>();
  await Promise.all(ordinary.map(async (call) => records.set(call, await runGuarded(context, call))));

  let exit: LoopControlExit | undefined;
  if (control && isLoopControlToolName(control.toolName)) {
    const record = await runGuarded(context, control);
    records.set(control, record);
    if (!record.isError) exit = loopControlExit(control.toolName, record.payload);
  }
  for (const call of calls) {
    if (records.has(call)) continue;
    const reason = context.allowMultipleCalls
      ? 'Not run: the turn ended before this call.'
      : 'Not run: only one tool call per response is allowed. Call this tool again in your next response.';
    records.set(call, notRun(context, call, reason));
  }
  return { records: calls.map((call) => records.get(call) as ToolCallRecord), ...(exit ? { exit } : {}) };
}

type RecordWithPayload = ToolCallRecord & { payload?: unknown };

// runToolCall never throws, but the events and bookkeeping around it are code too: whatever fails, the
// call still gets its one result, because providers reject a history with an orphaned call.
async function runGuarded(context: ToolStepContext, call: StepToolCall): Promise<RecordWithPayload> {
  try {
    return await runOne(context, call);
  } catch (error) {
    const reason = describeThrown(error);
    return notRun(context, call, `Failed inside agentloop (${reason}); the call may or may not have run.`);
  }
}

async function runOne(context: ToolStepContext, call: StepToolCall): Promise<RecordWithPayload> {
  const { events, iteration } = context;
  events.emit({
    type: 'tool-call',
    iteration,
    toolCallId: call.toolCallId,
    name: call.toolName,
    arguments: call.arguments,
  });
  const started = context.now();
  // A tool abandoned on cancel may still report progress; it must not show up after the call ended.
  let settled = false;
  const outcome:
    | ToolCallOutcome
    | { status: 'error'; code: NonNullable<StepToolCall['invalidCode']>; content: string } =
    call.invalid !== undefined
      ? {
          status: 'error',
          code: call.invalidCode ?? 'invalid_arguments',
          content: `Invalid call of tool "${call.toolName}": ${call.invalid}`,
        }
      : await runToolCall(
          context.tools,
          { toolCallId: call.toolCallId, toolName: call.toolName, arguments: call.arguments },
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
  const durationMs = context.now() - started;
  if (outcome.status === 'ok') {
    events.emit({
      type: 'tool-result',
      iteration,
      toolCallId: call.toolCallId,
      name: call.toolName,
      content: outcome.content,
      value: outcome.value,
      durationMs,
    });
    return { call, content: outcome.content, isError: false, payload: outcome.arguments };
  }
  events.emit({
    type: 'tool-result-error',
    iteration,
    toolCallId: call.toolCallId,
    name: call.toolName,
    content: outcome.content,
    code: outcome.code,
    durationMs,
  });
  return { call, content: outcome.content, isError: true };
}

function notRun(context: ToolStepContext, call: StepToolCall, content: string): ToolCallRecord {
  context.events.emit({
    type: 'tool-result-error',
    iteration: context.iteration,
    toolCallId: call.toolCallId,
    name: call.toolName,
    content,
    code: 'not_run',
    durationMs: 0,
  });
  return { call, content, isError: true };
}

/** The result of a call that a cancel left without one, so the history stays valid for the next run. */
export const CANCELLED_RESULT = 'Not run: the user cancelled the turn.';

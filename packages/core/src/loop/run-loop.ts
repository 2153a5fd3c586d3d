import { AgentloopError, CancelledError, userMessage } from '@agentloop/spec';
import type { LoopControlExit, TaskCompletionPayload } from '@agentloop/tools';
import { toolCallFailure } from '@agentloop/tools/internal';
import { JournalFailure } from '../journal/journal-failure.js';
import type { AgentOutcome, AgentResult } from './agent-result.js';
import { callModel } from './call-model.js';
import { CANCELLED_RESULT } from './cancelled-result.js';
import type { RunControl } from './run-control.js';
import {
  append,
  deliverQueuedInput,
  type LoopDependencies,
  type RunState,
  startRun,
  throwIfCancelled,
} from './run-state.js';
import type { ModelStep, ToolCall } from './tool-protocol.js';
import { runToolStep } from './tool-step.js';

export type { LoopDependencies } from './run-state.js';

/**
 * The agent loop: ask the model, run the tools it calls, repeat until it calls a loop-control tool or a
 * limit, a cancel or an error ends the run. Every ending is an AgentResult, announced by `loop-end` as
 * the last event. Rejects only when the journal itself fails (see JournalFailure), with its error.
 */
export async function runLoop(
  deps: LoopDependencies,
  control: RunControl,
  input: string,
): Promise<AgentResult<unknown>> {
  try {
    const run = await startRun(deps, control, input);
    return await endRun(run, await runSteps(run, control, input));
  } catch (error) {
    // The journal's own failure is the durable engine's to handle: the run is not over, so it has no result.
    if (error instanceof JournalFailure) throw error.failure;
    throw error;
  }
}

/** The steps of a run, to the outcome that ends it. Never throws: a failure is an `error` outcome. */
async function runSteps(run: RunState, control: RunControl, input: string): Promise<AgentOutcome<unknown>> {
  const { deps } = run;
  try {
    // Input queued before this run was sent before it, so it goes first.
    deliverQueuedInput(run);
    append(run, userMessage(input));
    while (run.iterations < deps.maxIterations) {
      throwIfCancelled(control.signal);
      deliverQueuedInput(run);
      const wrapUp = deps.onMaxIterations === 'wrap-up' && run.iterations + 1 === deps.maxIterations;
      const step = await callModel(run, wrapUp);
      if (step === 'switched-to-xml') continue;
      const exit = step.toolCalls.length > 0 ? await runTools(run, step, wrapUp) : remindOrConverse(run, step);
      // The wrap-up's task_completion is the model's account of an unfinished task, not its result.
      if (wrapUp && exit?.exit === 'task_completion') return endAtLimit(run, summaryOf(exit.payload));
      if (exit) return exit;
    }
    return endAtLimit(run, undefined);
  } catch (error) {
    if (error instanceof JournalFailure) throw error;
    if (control.signal.aborted) {
      const cancelled = new CancelledError(undefined, control.signal.reason);
      return { exit: 'cancelled', payload: undefined, error: cancelled };
    }
    return { exit: 'error', payload: undefined, error: AgentloopError.from(error) };
  }
}

async function runTools(
  run: RunState,
  step: ModelStep,
  wrapUp: boolean,
): Promise<LoopControlExit<unknown> | undefined> {
  const { deps, control } = run;
  run.consecutiveWithoutTool = 0;
  // A call cut off by the output limit may "repair" into the wrong arguments: never run it.
  const calls = step.toolCalls.map(
    (call): ToolCall =>
      step.finishReason === 'length' && (call.repaired || call.problem?.code === 'truncated_arguments')
        ? {
            ...call,
            problem: {
              code: 'truncated_arguments',
              message:
                'the call was cut off by the output token limit, so it was not run; send it again, shorter if needed',
            },
          }
        : call,
  );
  const { protocol } = step;
  const result = await runToolStep(
    run.toolStep,
    {
      iteration: run.iterations,
      // The wrap-up's task_completion is a summary in text, whatever the run's output schema.
      tools: wrapUp ? deps.tools : run.tools,
      allowMultipleCalls: protocol.name === 'native',
      loopControlOnly: wrapUp,
      outputResult: deps.taskCompletion !== undefined && !wrapUp,
    },
    calls,
  );
  append(run, ...protocol.resultMessages(result.outcomes));
  run.openStep = undefined;
  const { metrics } = run;
  metrics.toolCalls += result.outcomes.length;
  for (const outcome of result.outcomes) if (outcome.status === 'error') metrics.toolErrors++;
  // Taken before the cancel check, so that a cancelled run leaves none for the next one. A call needed the
  // user's approval and nothing could answer: the app must hear of it, not the model alone.
  const unanswered = deps.approvals?.takeUnanswered();
  throwIfCancelled(control.signal);
  if (unanswered) throw unanswered;
  return result.exit;
}

// A reply without a tool call gets a reminder; after two reminders in a row its text is taken as
// `converse`, so a model that will not call tools still reaches the user instead of looping.
function remindOrConverse(run: RunState, step: ModelStep): LoopControlExit<unknown> | undefined {
  const { deps } = run;
  const consecutive = ++run.consecutiveWithoutTool;
  deps.events.emit({ type: 'no-tool-call', iteration: run.iterations, text: step.text, consecutive });
  const text = step.text.trim();
  if (consecutive > 2 && text !== '') return { exit: 'converse', payload: { message: text } };
  // No reminder after the last call: the next run would start with a stale one.
  if (run.iterations < deps.maxIterations) append(run, userMessage(step.protocol.reminder(consecutive)));
  return undefined;
}

/** Answers the calls a failure or cancel left without a result, so the next run can send the history as it is. */
function closeOpenCalls(run: RunState, content: string): void {
  const step = run.openStep;
  if (!step) return;
  run.openStep = undefined;
  try {
    append(
      run,
      ...step.protocol.resultMessages(step.toolCalls.map((call) => toolCallFailure(call, 'not_run', content))),
    );
  } catch {
    // The memory itself failed; the run already ends with that error, and there is nothing left to try.
  }
}

/** The wrap-up's summary: validated as text by the built-in task_completion, checked again for its type. */
function summaryOf(payload: TaskCompletionPayload<unknown>): TaskCompletionPayload | undefined {
  const { result, artifacts } = payload;
  return typeof result === 'string' ? { result, ...(artifacts ? { artifacts } : {}) } : undefined;
}

/** Ends a run that made `maxIterations` calls, with the wrap-up's task_completion when there is one. */
function endAtLimit(run: RunState, summary: TaskCompletionPayload | undefined): AgentOutcome<unknown> {
  const { deps } = run;
  deps.events.emit({
    type: 'loop-max-reached',
    runId: deps.runId,
    iterations: run.iterations,
    maxIterations: deps.maxIterations,
    ending: run.wrappedUp ? 'wrap-up' : 'stop',
    ...(summary ? { summary } : {}),
  });
  return { exit: 'max_iterations', payload: summary };
}

/**
 * Ends the run: answers open calls, announces the exit, saves the turn, and emits `loop-end` with the
 * result. A turn the session store fails to save ends the run with `exit: 'error'` and the store's error,
 * so that `loop-end` and the result tell the same story whatever the store does.
 */
async function endRun(run: RunState, outcome: AgentOutcome<unknown>): Promise<AgentResult<unknown>> {
  const { deps } = run;
  if (outcome.exit === 'cancelled') closeOpenCalls(run, CANCELLED_RESULT);
  else if (outcome.exit === 'error') {
    closeOpenCalls(run, `Not run: the turn ended with an error before this call finished (${outcome.error.message}).`);
  }
  announceExit(run, outcome);
  const { metrics } = run;
  metrics.wallTimeMs = (await deps.journal.now()) - run.started;
  metrics.runs = 1;
  deps.sessionMetrics.add(metrics);
  let result: AgentResult<unknown> = {
    ...outcome,
    usage: metrics.usage,
    iterations: run.iterations,
    messages: run.added,
    durationMs: metrics.wallTimeMs,
    metrics: metrics.runMetrics(),
  };
  if (deps.saveTurn) {
    try {
      await deps.saveTurn(result);
    } catch (error) {
      result = { ...result, exit: 'error', payload: undefined, error: AgentloopError.from(error) };
    }
  }
  run.control.settled = true;
  deps.tracer?.end(result);
  deps.events.emit({ type: 'loop-end', runId: deps.runId, result });
  deps.events.endRun(deps.runId);
  return result;
}

function announceExit(run: RunState, outcome: AgentOutcome<unknown>): void {
  const { events } = run.deps;
  const iteration = run.iterations;
  switch (outcome.exit) {
    case 'task_completion':
      events.emit({ type: 'task-complete', iteration, ...outcome.payload });
      break;
    case 'ask_question':
      events.emit({ type: 'question-asked', iteration, ...outcome.payload });
      break;
    case 'converse':
      events.emit({ type: 'converse', iteration, ...outcome.payload });
      break;
  }
}

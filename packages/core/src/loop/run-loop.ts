import type { Memory } from '@agentloop/memory';
import type { PromptBuilder } from '@agentloop/prompts';
import type { LLMProvider, Message, ModelRequest, ModelSettings, ToolDefinition } from '@agentloop/spec';
import { AgentloopError, addUsage, CancelledError, ProviderError, userMessage } from '@agentloop/spec';
import type { LoopControlExit, RegisteredTool, TaskCompletionPayload, ToolRegistry } from '@agentloop/tools';
import { isLoopControlToolName } from '@agentloop/tools';
import { toolCallFailure } from '@agentloop/tools/internal';
import type { OnMaxIterations } from '../agent/agent-options.js';
import type { AgentOutcome, AgentResult } from '../agent/agent-result.js';
import type { ApprovalGate } from '../approvals/index.js';
import type { CompactionReport, ContextGuard } from '../compaction/context-guard.js';
import type { AgentEventBus } from '../events/index.js';
import { MetricsTotals } from '../tokens/metrics-totals.js';
import type { RunTracer } from '../tracing/run-tracer.js';
import { abortable } from './abortable-stream.js';
import type { HistoryCheck } from './history-check.js';
import { ModelStepCollector } from './model-step.js';
import type { RunTools } from './output-tool-view.js';
import { OutputToolView } from './output-tool-view.js';
import type { RunControl } from './run-control.js';
import type { ModelStep, ToolCall, ToolProtocolAdapter } from './tool-protocol.js';
import { CANCELLED_RESULT, runToolStep } from './tool-step.js';

/** What one run of the loop works with and does not change: the agent's parts, limits, clock and ids. */
export interface LoopDependencies {
  tools: ToolRegistry;
  memory: Memory;
  prompts: PromptBuilder;
  events: AgentEventBus;
  maxIterations: number;
  /** How the run meets `maxIterations`: a wrap-up step before the last call, or a plain stop after it. */
  onMaxIterations: OnMaxIterations;
  /** The longest tool result sent to the model, in characters. */
  maxToolResultChars?: number;
  /** How long a tool may run unless it sets its own `timeoutMs`, in milliseconds. */
  toolTimeoutMs?: number;
  /** The most tool calls of one response running at once. */
  maxParallelTools: number;
  /** False: the model is asked for one call per response, and a response's calls run one by one. */
  parallelToolCalls: boolean;
  /** task_completion of a run with an `output` schema: its result takes that schema. */
  taskCompletion?: RegisteredTool;
  settings?: ModelSettings;
  /** Checks the history before each request (kept by the agent, so checked messages are not walked again). */
  historyCheck: HistoryCheck;
  sessionId: string;
  workspace: string;
  now: () => number;
  runId: string;
  /** The run's tracing seam; absent when tracing is off, so that the loop then does no tracing work. */
  tracer?: RunTracer;
  /** Asks the agent's approval policy before tool calls; absent when the agent has none (every call runs). */
  approvals?: ApprovalGate;
  /** Knows how full the context is, and compacts the memory before a request that would not fit. */
  context: ContextGuard;
  /** The agent's figures over all its runs: the run's are added to them as it ends. */
  sessionMetrics: MetricsTotals;
}

/** A run in progress. */
interface RunState {
  deps: LoopDependencies;
  control: RunControl;
  /** The tools the run offers: the agent's, or a view of them with a typed task_completion. */
  tools: RunTools;
  iterations: number;
  /** The run's figures: tokens, calls, times. */
  metrics: MetricsTotals;
  consecutiveWithoutTool: number;
  /** The messages this run added, in order, less those a compaction replaced. */
  added: Message[];
  started: number;
  /** The step whose calls are in history still waiting for their results: whatever ends the run, they get one. */
  openStep: ModelStep | undefined;
  /** True once the wrap-up call was made. */
  wrappedUp: boolean;
}

/** The model answered; or its server rejected native tools and the session switched to XML. */
type ModelCallOutcome = ModelStep | 'switched-to-xml';

/**
 * The agent loop: ask the model, run the tools it calls, repeat until it calls a loop-control tool or a
 * limit, a cancel or an error ends the run. Never throws: every ending is an AgentResult, announced by
 * `loop-end` as the last event.
 */
export async function runLoop(
  deps: LoopDependencies,
  control: RunControl,
  input: string,
): Promise<AgentResult<unknown>> {
  const run = startRun(deps, control, input);
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
      if (exit) return endRun(run, exit);
    }
    return endAtLimit(run, undefined);
  } catch (error) {
    if (control.signal.aborted) {
      const cancelled = new CancelledError(undefined, control.signal.reason);
      return endRun(run, { exit: 'cancelled', payload: undefined, error: cancelled });
    }
    return endRun(run, { exit: 'error', payload: undefined, error: AgentloopError.from(error) });
  }
}

function startRun(deps: LoopDependencies, control: RunControl, input: string): RunState {
  deps.events.emit({ type: 'loop-start', runId: deps.runId, input });
  deps.tracer?.start(input, control.selection.provider);
  return {
    deps,
    control,
    tools: deps.taskCompletion ? new OutputToolView(deps.tools, deps.taskCompletion) : deps.tools,
    iterations: 0,
    metrics: new MetricsTotals(),
    consecutiveWithoutTool: 0,
    added: [],
    started: deps.now(),
    openStep: undefined,
    wrappedUp: false,
  };
}

function append(run: RunState, ...messages: Message[]): void {
  if (messages.length === 0) return;
  run.deps.memory.append(...messages);
  run.added.push(...messages);
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new CancelledError(undefined, signal.reason);
}

function deliverQueuedInput(run: RunState): void {
  for (const text of run.control.takeQueuedInput()) {
    append(run, userMessage(text));
    run.deps.events.emit({ type: 'input-delivered', iteration: run.iterations + 1, text });
  }
}

/** A request, and the history it was built from (without the wrap-up notice). */
interface BuiltRequest {
  request: ModelRequest;
  history: Message[];
}

/** One attempt at a model call: the step collected, whether it finished, and what it failed with. */
interface ModelAttempt {
  step: ModelStep;
  finished: boolean;
  failure: { error: unknown } | undefined;
}

/**
 * One model call. In the wrap-up step (`wrapUp`) the request offers only the loop-control tools and ends
 * with the wrap-up notice, which is sent with this request only. The memory is compacted first when the
 * request would pass the compaction threshold, and once more, with the request sent again, when the
 * provider rejects it as too long.
 */
async function callModel(run: RunState, wrapUp: boolean): Promise<ModelCallOutcome> {
  const { deps, control } = run;
  const iteration = ++run.iterations;
  deps.events.emit({ type: 'loop-iteration', runId: deps.runId, iteration });
  const provider = control.selection.provider;
  const protocol = control.selection.resolveProtocol();
  const definitions = wrapUp ? loopControlDefinitions(deps.tools) : run.tools.definitions();
  const build = () => buildRequest(run, wrapUp, provider, protocol, definitions);
  let built = build();
  if (wrapUp) {
    run.wrappedUp = true;
    deps.events.emit({ type: 'loop-wrap-up', runId: deps.runId, iteration, maxIterations: deps.maxIterations });
  }
  const at = { iteration, signal: control.signal };
  if (deps.context.nearThreshold(built.request, provider)) {
    if (countCompaction(run, await deps.context.beforeRequest(built.request, provider, at))) built = build();
  }
  let attempt = await streamModel(run, built, provider, protocol, iteration);
  if (isTooLong(run, attempt)) {
    countCompaction(run, await deps.context.compact('context_length', provider, { ...at, frame: built.request }));
    built = build();
    attempt = await streamModel(run, built, provider, protocol, iteration);
  }
  const { step, finished, failure } = attempt;
  const empty = step.message.content.length === 0;
  if (control.signal.aborted) {
    // What the model already said stays in history, and each call it made gets a result (at the run's end).
    if (!empty) appendStep(run, step);
    throw new CancelledError(undefined, control.signal.reason);
  }
  if (failure) {
    if (!canFallBackToXml(run, provider, protocol, failure.error)) throw failure.error;
    deps.events.emit({ type: 'protocol-switch', iteration, from: 'native', to: 'xml', reason: failure.error.message });
    return 'switched-to-xml';
  }
  if (!finished) {
    // A response without a finish reason was cut off: its last tool call may hold half its arguments
    // (`make` instead of `make release`), so none of it is kept or run.
    throw new ProviderError(
      empty
        ? 'The model stream ended without any output and without a finish reason.'
        : 'The model stream ended without a finish reason: the response was cut off, so it was dropped and its tool calls were not run.',
      { code: 'stream_broken', provider: provider.id },
    );
  }
  // An empty assistant message is rejected by providers; an empty answer is handled as "no tool call".
  if (!empty) appendStep(run, step);
  return step;
}

/** The request for the next call, from the memory as it is now; its history checked. */
function buildRequest(
  run: RunState,
  wrapUp: boolean,
  provider: LLMProvider,
  protocol: ToolProtocolAdapter,
  definitions: readonly ToolDefinition[],
): BuiltRequest {
  const { deps, control } = run;
  const history = deps.memory.messages().filter((message) => message.role !== 'system');
  deps.historyCheck.assertValid(history);
  const messages = wrapUp ? [...history, userMessage(protocol.wrapUpNotice())] : history;
  const request: ModelRequest = {
    systemPrompt: deps.prompts.build({
      tools: definitions,
      protocol: protocol.name,
      provider: provider.id,
      model: provider.capabilities.modelId,
    }),
    messages,
    ...protocol.requestTools(definitions),
    ...(deps.settings ? { settings: deps.settings } : {}),
    signal: control.signal,
  };
  // Set only when asked for, so that a request without it stays as it was (and as recordings have it).
  if (!deps.parallelToolCalls && protocol.name === 'native') request.parallelToolCalls = false;
  return { request, history };
}

/** Streams one attempt at the call, emitting its events, and records its usage, time and context. */
async function streamModel(
  run: RunState,
  built: BuiltRequest,
  provider: LLMProvider,
  protocol: ToolProtocolAdapter,
  iteration: number,
): Promise<ModelAttempt> {
  const { deps, control, metrics } = run;
  const { request } = built;
  const modelSpan = deps.tracer?.modelCall(request, provider, iteration);
  const collector = new ModelStepCollector(deps.events, iteration);
  const decoder = protocol.createDecoder(run.tools);
  const started = deps.now();
  let finished = false;
  let failure: { error: unknown } | undefined;
  try {
    // A provider that ignores its signal must not make cancel hang: the stream is raced against it.
    const stream = modelSpan ? modelSpan.stream(provider, request) : provider.stream(request);
    for await (const chunk of abortable(stream, control.signal)) {
      // The XML protocol keeps the model's text with its tool blocks in history.
      if (chunk.type === 'text-delta') collector.recordRawText(chunk.text);
      else if (chunk.type === 'finish') finished = true;
      else if (chunk.type === 'retry') metrics.retries++;
      for (const event of decoder.decode(chunk)) collector.accept(event);
    }
    for (const event of decoder.flush()) collector.accept(event);
  } catch (error) {
    failure = { error };
  }
  const step = collector.finish(protocol);
  metrics.modelCalls++;
  metrics.modelTimeMs += deps.now() - started;
  metrics.spend(step.usage, provider.capabilities.pricing);
  modelSpan?.end(step, { error: failure?.error, finished, cancelled: control.signal.aborted });
  // The answer is kept in history when it has content and the call finished, or was cancelled.
  const kept = step.message.content.length > 0 && (control.signal.aborted || (!failure && finished));
  const context = deps.context.afterCall(step.usage, request, built.history, kept ? step.message : undefined, provider);
  metrics.context = context;
  deps.events.emit({
    type: 'usage',
    iteration,
    usage: step.usage,
    total: metrics.usage,
    sessionTotal: addUsage(deps.sessionMetrics.usage, metrics.usage),
    context,
    finishReason: step.finishReason,
  });
  return { step, finished, failure };
}

/** A request the provider rejected as too long, before any output, with compaction on: compact and retry. */
function isTooLong(run: RunState, attempt: ModelAttempt): boolean {
  const error = attempt.failure?.error;
  return (
    run.deps.context.automatic &&
    !run.control.signal.aborted &&
    attempt.step.message.content.length === 0 &&
    AgentloopError.isInstance(error) &&
    error.code === 'context_length'
  );
}

/**
 * Adds a compaction to the run's figures, and lets go of the messages of the run that it replaced, so that
 * a long run's memory stays flat; true when there was a compaction.
 */
function countCompaction(run: RunState, report: CompactionReport | undefined): boolean {
  if (!report) return false;
  // What the compaction kept of the run's messages, in memory's order. A compactor may keep a call's message
  // and replace its result with a new one (an emptied result), or the other way round: the partner next
  // to a kept message stays with it, so that the run's messages never hold a call without its result.
  const kept = new Set<Message>();
  for (const message of run.added) {
    const retained = report.retained.get(message);
    if (retained) kept.add(retained);
  }
  const memory = kept.size > 0 ? run.deps.memory.messages() : [];
  run.added = memory.filter(
    (message, index) =>
      kept.has(message) ||
      (message.role === 'tool' && kept.has(memory[index - 1] as Message)) ||
      (message.role === 'assistant' && memory[index + 1]?.role === 'tool' && kept.has(memory[index + 1] as Message)),
  );
  run.metrics.compactions++;
  if (report.usage) run.metrics.spend(report.usage, report.pricing);
  return true;
}

// An OpenAI-compatible server that says the model has no tool support: with `toolProtocol: 'auto'` the
// session goes on in the XML protocol instead of failing. The switch takes one of the run's iterations.
function canFallBackToXml(
  run: RunState,
  provider: LLMProvider,
  protocol: ToolProtocolAdapter,
  failure: unknown,
): failure is AgentloopError {
  return (
    protocol.name === 'native' &&
    AgentloopError.isInstance(failure) &&
    failure.code === 'tools_unsupported' &&
    run.iterations < run.deps.maxIterations &&
    run.control.selection.fallBackToXml(provider)
  );
}

function loopControlDefinitions(tools: ToolRegistry): ToolDefinition[] {
  return tools.definitions().filter((definition) => isLoopControlToolName(definition.name));
}

function appendStep(run: RunState, step: ModelStep): void {
  append(run, step.message);
  if (step.toolCalls.length > 0) run.openStep = step;
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
  const timing = { totalMs: 0 };
  const result = await runToolStep(
    {
      timing,
      // The wrap-up's task_completion is a summary in text, whatever the run's output schema.
      tools: wrapUp ? deps.tools : run.tools,
      events: deps.events,
      iteration: run.iterations,
      signal: control.signal,
      sessionId: deps.sessionId,
      workspace: deps.workspace,
      now: deps.now,
      tracer: deps.tracer,
      approvals: deps.approvals,
      allowMultipleCalls: protocol.name === 'native',
      loopControlOnly: wrapUp,
      outputResult: deps.taskCompletion !== undefined && !wrapUp,
      maxParallelTools: deps.parallelToolCalls ? deps.maxParallelTools : 1,
      ...(deps.maxToolResultChars === undefined ? {} : { maxResultChars: deps.maxToolResultChars }),
      ...(deps.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: deps.toolTimeoutMs }),
    },
    calls,
  );
  append(run, ...protocol.resultMessages(result.outcomes));
  run.openStep = undefined;
  const { metrics } = run;
  metrics.toolCalls += result.outcomes.length;
  for (const outcome of result.outcomes) if (outcome.status === 'error') metrics.toolErrors++;
  metrics.toolTimeMs += timing.totalMs;
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
function endAtLimit(run: RunState, summary: TaskCompletionPayload | undefined): AgentResult<unknown> {
  const { deps } = run;
  deps.events.emit({
    type: 'loop-max-reached',
    runId: deps.runId,
    iterations: run.iterations,
    maxIterations: deps.maxIterations,
    ending: run.wrappedUp ? 'wrap-up' : 'stop',
    ...(summary ? { summary } : {}),
  });
  return endRun(run, { exit: 'max_iterations', payload: summary });
}

function endRun(run: RunState, outcome: AgentOutcome<unknown>): AgentResult<unknown> {
  const { deps } = run;
  if (outcome.exit === 'cancelled') closeOpenCalls(run, CANCELLED_RESULT);
  else if (outcome.exit === 'error') {
    closeOpenCalls(run, `Not run: the turn ended with an error before this call finished (${outcome.error.message}).`);
  }
  announceExit(run, outcome);
  const { metrics } = run;
  metrics.wallTimeMs = deps.now() - run.started;
  metrics.runs = 1;
  deps.sessionMetrics.add(metrics);
  const result: AgentResult<unknown> = {
    ...outcome,
    usage: metrics.usage,
    iterations: run.iterations,
    messages: run.added,
    durationMs: metrics.wallTimeMs,
    metrics: metrics.runMetrics(),
  };
  run.control.settled = true;
  deps.tracer?.end(result);
  deps.events.emit({ type: 'loop-end', runId: deps.runId, result });
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

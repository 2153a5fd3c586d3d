import type { LLMProvider, Message, ModelRequest, ToolDefinition } from '@agentloop/spec';
import { AgentloopError, addUsage, CancelledError, ProviderError, userMessage } from '@agentloop/spec';
import type { ToolRegistry } from '@agentloop/tools';
import { isLoopControlToolName } from '@agentloop/tools';
import type { CompactionReport } from '../compaction/context-guard.js';
import { abortable } from './abortable-stream.js';
import { parallelToolCallsFor } from './loop-settings.js';
import { ModelStepCollector } from './model-step.js';
import { type ModelAttempt, recordModelCall, restoreModelCall } from './recorded-model-call.js';
import { append, type RunState } from './run-state.js';
import type { ModelStep, ToolProtocolAdapter } from './tool-protocol.js';

/** The model answered; or its server rejected native tools and the session switched to XML. */
export type ModelCallOutcome = ModelStep | 'switched-to-xml';

/** A request, and the history it was built from (without the wrap-up notice). */
interface BuiltRequest {
  request: ModelRequest;
  history: Message[];
}

/**
 * One model call. In the wrap-up step (`wrapUp`) the request offers only the loop-control tools and ends
 * with the wrap-up notice, which is sent with this request only. The memory is compacted first when the
 * request would pass the compaction threshold, and once more, with the request sent again, when the
 * provider rejects it as too long.
 */
export async function callModel(run: RunState, wrapUp: boolean): Promise<ModelCallOutcome> {
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
  const at = { iteration, signal: control.signal, journal: deps.journal };
  if (deps.context.nearThreshold(built.request, provider)) {
    if (countCompaction(run, await deps.context.beforeRequest(built.request, provider, at))) built = build();
  }
  let attempt = await streamModel(run, built, provider, protocol, `model:${iteration}`);
  if (isTooLong(run, attempt)) {
    countCompaction(run, await deps.context.compact('context_length', provider, { ...at, frame: built.request }));
    built = build();
    attempt = await streamModel(run, built, provider, protocol, `model:${iteration}:after-compaction`);
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
  const history = run.history.read(deps.memory.messages());
  deps.historyCheck.assertValid(history);
  const messages = wrapUp ? [...history, userMessage(protocol.wrapUpNotice())] : history;
  const request: ModelRequest = {
    systemPrompt: deps.prompts.build({
      tools: definitions,
      protocol: protocol.name,
      provider: provider.id,
      model: provider.capabilities.modelId,
      ...(provider.capabilities.instructions ? { modelInstructions: provider.capabilities.instructions } : {}),
    }),
    messages,
    ...protocol.requestTools(definitions),
    ...(deps.settings ? { settings: deps.settings } : {}),
    signal: control.signal,
  };
  // Set only when asked for, so that a request without it stays as it was (and as recordings have it).
  if (!parallelToolCallsFor(deps, provider) && protocol.name === 'native') request.parallelToolCalls = false;
  return { request, history };
}

/**
 * One attempt at the call, as a journal step: streamed live the first time, emitting its events; on replay
 * the recorded attempt, without calling the model or emitting its stream's events again. Then records
 * its usage, time and context, and emits `usage`.
 */
async function streamModel(
  run: RunState,
  built: BuiltRequest,
  provider: LLMProvider,
  protocol: ToolProtocolAdapter,
  stepName: string,
): Promise<ModelAttempt> {
  const { deps, control, metrics } = run;
  const { request } = built;
  const iteration = run.iterations;
  // The attempt as it happened, when it happened in this process: the loop goes on with its own objects
  // (the error with its cause), and only a replay reads the record.
  let live: ModelAttempt | undefined;
  const recorded = await deps.journal.step(stepName, async () => {
    live = await streamAttempt(run, request, provider, protocol, stepName);
    return recordModelCall(live);
  });
  const attempt = live ?? restoreModelCall(recorded, protocol);
  const { step } = attempt;
  metrics.modelCalls++;
  metrics.retries += attempt.retries;
  metrics.modelTimeMs += attempt.durationMs;
  metrics.spend(step.usage, provider.capabilities.pricing);
  // The answer is kept in history when it has content and the call finished, or was cancelled.
  const kept = step.message.content.length > 0 && (control.signal.aborted || (!attempt.failure && attempt.finished));
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
  return attempt;
}

/** Streams the call, emitting its text, thinking and tool-call-start events in the step's own scope. */
async function streamAttempt(
  run: RunState,
  request: ModelRequest,
  provider: LLMProvider,
  protocol: ToolProtocolAdapter,
  stepName: string,
): Promise<ModelAttempt> {
  const { deps, control } = run;
  const iteration = run.iterations;
  const modelSpan = deps.tracer?.modelCall(request, provider, iteration);
  const collector = new ModelStepCollector(deps.events.scope(stepName), iteration);
  const decoder = protocol.createDecoder(run.tools, `${deps.runId}/${stepName}`);
  const started = deps.now();
  let finished = false;
  let retries = 0;
  let failure: { error: unknown } | undefined;
  try {
    // A provider that ignores its signal must not make cancel hang: the stream is raced against it.
    const stream = modelSpan ? modelSpan.stream(provider, request) : provider.stream(request);
    for await (const batch of abortable(stream, control.signal)) {
      for (const chunk of batch) {
        // A listener may cancel the run while a batch is read: the rest of it is not the run's any more.
        if (control.signal.aborted) throw new CancelledError(undefined, control.signal.reason);
        // The XML protocol keeps the model's text with its tool blocks in history.
        if (chunk.type === 'text-delta') collector.recordRawText(chunk.text);
        else if (chunk.type === 'finish') finished = true;
        else if (chunk.type === 'retry') retries++;
        for (const event of decoder.decode(chunk)) collector.accept(event);
      }
    }
    for (const event of decoder.flush()) collector.accept(event);
  } catch (error) {
    failure = { error };
  }
  const step = collector.finish(protocol);
  const durationMs = deps.now() - started;
  modelSpan?.end(step, { error: failure?.error, finished, cancelled: control.signal.aborted });
  return { step, finished, failure, retries, durationMs };
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
  // A no-op left the conversation as it was: nothing to count, nothing to let go of.
  if (!report || report.strategy === 'none') return false;
  // The memory was rewritten: the next request reads it from the start.
  run.history.reset();
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

/** Keeps the model's answer in history; its calls are open until their results are in. */
function appendStep(run: RunState, step: ModelStep): void {
  append(run, step.message);
  if (step.toolCalls.length > 0) run.openStep = step;
}

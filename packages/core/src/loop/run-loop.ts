import type { Memory, Message } from '@agentloop/memory';
import { userMessage } from '@agentloop/memory';
import type { PromptBuilder } from '@agentloop/prompts';
import type { ToolRegistry } from '@agentloop/tools';
import { AgentloopError } from '@agentloop/tools';
import type { AgentExit, AgentResult } from '../agent/agent-result.js';
import { CancelledError, ProviderError } from '../errors/index.js';
import type { AgentEventBus } from '../events/index.js';
import type { LLMProvider, ModelRequest, ModelSettings, Usage } from '../provider/index.js';
import { addUsage, emptyUsage } from '../provider/index.js';
import { abortable } from './abortable-stream.js';
import type { HistoryCheck } from './history-check.js';
import { ModelStepCollector } from './model-step.js';
import type { ModelStep, StepToolCall, ToolProtocolAdapter } from './tool-protocol.js';
import type { LoopExit } from './tool-step.js';
import { CANCELLED_RESULT, runToolStep } from './tool-step.js';

/** Everything one run of the loop uses, passed in so the loop holds no state of its own. */
export interface LoopDependencies {
  /** The provider of the next model call (it can be switched mid-run). */
  provider: () => LLMProvider;
  tools: ToolRegistry;
  memory: Memory;
  prompts: PromptBuilder;
  events: AgentEventBus;
  /** The tool protocol of the next model call (it can change mid-run, e.g. native → xml). */
  protocol: () => ToolProtocolAdapter;
  /** Switches the session to the XML protocol when the server rejects native tools; false when not allowed. */
  fallBackToXml: () => boolean;
  /** Takes the input queued with `agent.send()` since the last call. */
  takeQueuedInput: () => string[];
  /** Called once the run's outcome is known, just before `loop-end`, so a `loop-end` listener can start the next run. */
  onSettled: () => void;
  maxIterations: number;
  /** The longest tool result sent to the model, in characters. */
  maxToolResultChars?: number;
  /** How long a tool may run unless it sets its own `timeoutMs`, in milliseconds. */
  toolTimeoutMs?: number;
  /** Checks the history before each request (kept by the agent, so checked messages are not walked again). */
  historyCheck: HistoryCheck;
  settings?: ModelSettings;
  sessionId: string;
  workspace: string;
  signal: AbortSignal;
  now: () => number;
  runId: string;
}

/** A run in progress. */
interface RunState {
  deps: LoopDependencies;
  iterations: number;
  usage: Usage;
  consecutiveWithoutTool: number;
  /** The messages this run added, in order (a compacting memory may rewrite its own list). */
  added: Message[];
  started: number;
  /** The protocol of the current iteration. */
  protocol: ToolProtocolAdapter;
  /** Calls in history still waiting for their results: whatever ends the run, they get one. */
  openCalls: readonly StepToolCall[];
}

/**
 * The agent loop: ask the model, run the tools it calls, repeat until it calls a loop-control tool or a
 * limit, a cancel or an error ends the run. Never throws: every ending is an AgentResult, announced by
 * `loop-end` as the last event.
 */
export async function runLoop(deps: LoopDependencies, input: string): Promise<AgentResult> {
  const run = startRun(deps, input);
  try {
    // Input queued before this run was sent before it, so it goes first.
    deliverQueuedInput(run);
    append(run, userMessage(input));
    while (run.iterations < deps.maxIterations) {
      throwIfCancelled(deps.signal);
      deliverQueuedInput(run);
      const step = await callModel(run);
      const exit = step.toolCalls.length > 0 ? await runTools(run, step) : remindOrConverse(run, step);
      if (exit) return endRun(run, loopControlExit(exit));
    }
    deps.events.emit({
      type: 'loop-max-reached',
      runId: deps.runId,
      iterations: run.iterations,
      maxIterations: deps.maxIterations,
    });
    return endRun(run, { exit: 'max_iterations', payload: undefined });
  } catch (error) {
    if (deps.signal.aborted)
      return endRun(run, {
        exit: 'cancelled',
        payload: undefined,
        error: new CancelledError(undefined, deps.signal.reason),
      });
    return endRun(run, { exit: 'error', payload: undefined, error: AgentloopError.from(error) });
  }
}

function startRun(deps: LoopDependencies, input: string): RunState {
  deps.events.emit({ type: 'loop-start', runId: deps.runId, input });
  return {
    deps,
    iterations: 0,
    usage: emptyUsage(),
    consecutiveWithoutTool: 0,
    added: [],
    started: deps.now(),
    protocol: deps.protocol(),
    openCalls: [],
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
  for (const text of run.deps.takeQueuedInput()) {
    append(run, userMessage(text));
    run.deps.events.emit({ type: 'input-delivered', iteration: run.iterations + 1, text });
  }
}

async function callModel(run: RunState): Promise<ModelStep> {
  const { deps } = run;
  const iteration = ++run.iterations;
  deps.events.emit({ type: 'loop-iteration', runId: deps.runId, iteration });
  const provider = deps.provider();
  const protocol = deps.protocol();
  run.protocol = protocol;
  const definitions = deps.tools.definitions();
  const messages = deps.memory.messages().filter((message) => message.role !== 'system');
  deps.historyCheck.assertValid(messages);
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
    signal: deps.signal,
  };
  const collector = new ModelStepCollector(deps.events, iteration);
  const decoder = protocol.createDecoder();
  let finished = false;
  let failure: { error: unknown } | undefined;
  try {
    // A provider that ignores its signal must not make cancel hang: the stream is raced against it.
    for await (const chunk of abortable(provider.stream(request), deps.signal)) {
      // The XML protocol keeps the model's text with its tool blocks in history.
      if (chunk.type === 'text-delta') collector.recordRawText(chunk.text);
      else if (chunk.type === 'finish') finished = true;
      for (const event of decoder.decode(chunk)) collector.accept(event);
    }
    for (const event of decoder.flush()) collector.accept(event);
  } catch (error) {
    failure = { error };
  }
  const step = collector.finish(protocol);
  run.usage = addUsage(run.usage, step.usage);
  deps.events.emit({ type: 'usage', iteration, usage: step.usage, total: run.usage, finishReason: step.finishReason });
  const empty = step.message.content.length === 0;
  if (deps.signal.aborted) {
    // What the model already said stays in history, and each call it made gets a result (at the run's end).
    if (!empty) appendStep(run, step);
    throw new CancelledError(undefined, deps.signal.reason);
  }
  if (failure) {
    if (!canFallBackToXml(run, protocol, failure.error)) throw failure.error;
    deps.events.emit({ type: 'protocol-switch', from: 'native', to: 'xml', reason: (failure.error as Error).message });
    return callModel(run);
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

function appendStep(run: RunState, step: ModelStep): void {
  append(run, step.message);
  run.openCalls = step.toolCalls;
}

/** Answers the calls a failure or cancel left without a result, so the next run can send the history as it is. */
function closeOpenCalls(run: RunState, content: string): void {
  const calls = run.openCalls;
  if (calls.length === 0) return;
  run.openCalls = [];
  try {
    append(run, ...run.protocol.resultMessages(calls.map((call) => ({ call, content, isError: true }))));
  } catch {
    // The memory itself failed; the run already ends with that error, and there is nothing left to try.
  }
}

// An OpenAI-compatible server that says the model has no tool support: with `toolProtocol: 'auto'` the
// session goes on in the XML protocol instead of failing.
function canFallBackToXml(run: RunState, protocol: ToolProtocolAdapter, failure: unknown): boolean {
  return (
    protocol.name === 'native' &&
    AgentloopError.isInstance(failure) &&
    failure.code === 'tools_unsupported' &&
    run.iterations < run.deps.maxIterations &&
    run.deps.fallBackToXml()
  );
}

async function runTools(run: RunState, step: ModelStep): Promise<LoopExit | undefined> {
  const { deps, protocol } = run;
  run.consecutiveWithoutTool = 0;
  // A call cut off by the output limit may "repair" into the wrong arguments: never run it.
  const calls = step.toolCalls.map((call) =>
    step.finishReason === 'length' && (call.repaired || call.invalidCode === 'truncated_arguments')
      ? {
          ...call,
          invalid:
            'the call was cut off by the output token limit, so it was not run; send it again, shorter if needed',
          invalidCode: 'truncated_arguments' as const,
        }
      : call,
  );
  const result = await runToolStep(
    {
      tools: deps.tools,
      events: deps.events,
      iteration: run.iterations,
      signal: deps.signal,
      sessionId: deps.sessionId,
      workspace: deps.workspace,
      now: deps.now,
      allowMultipleCalls: protocol.name === 'native',
      ...(deps.maxToolResultChars === undefined ? {} : { maxResultChars: deps.maxToolResultChars }),
      ...(deps.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: deps.toolTimeoutMs }),
    },
    calls,
  );
  append(run, ...protocol.resultMessages(result.records));
  run.openCalls = [];
  throwIfCancelled(deps.signal);
  return result.exit;
}

// A reply without a tool call gets a reminder; after two reminders in a row its text is taken as
// `converse`, so a model that will not call tools still reaches the user instead of looping.
function remindOrConverse(run: RunState, step: ModelStep): LoopExit | undefined {
  const { deps } = run;
  const consecutive = ++run.consecutiveWithoutTool;
  deps.events.emit({ type: 'no-tool-call', iteration: run.iterations, text: step.text, consecutive });
  if (consecutive > 2 && step.text.trim() !== '') return { tool: 'converse', payload: { message: step.text.trim() } };
  // No reminder after the last call: the next run would start with a stale one.
  if (run.iterations < deps.maxIterations) append(run, userMessage(run.protocol.reminder(consecutive)));
  return undefined;
}

function loopControlExit(exit: LoopExit): Pick<AgentResult, 'exit' | 'payload'> {
  return { exit: exit.tool, payload: exit.payload } as Pick<AgentResult, 'exit' | 'payload'>;
}

function endRun(run: RunState, outcome: { exit: AgentExit; payload: unknown; error?: AgentloopError }): AgentResult {
  const { deps } = run;
  closeOpenCalls(
    run,
    outcome.exit === 'cancelled'
      ? CANCELLED_RESULT
      : `Not run: the turn ended with an error before this call finished (${outcome.error?.message ?? 'unknown error'}).`,
  );
  announceExit(deps.events, outcome.exit, outcome.payload);
  const result = {
    ...outcome,
    usage: run.usage,
    iterations: run.iterations,
    messages: run.added,
    durationMs: deps.now() - run.started,
  } as AgentResult;
  deps.onSettled();
  deps.events.emit({ type: 'loop-end', runId: deps.runId, result });
  return result;
}

function announceExit(events: AgentEventBus, exit: AgentExit, payload: unknown): void {
  if (exit === 'task_completion') events.emit({ type: 'task-complete', ...(payload as { result: string }) });
  else if (exit === 'ask_question') events.emit({ type: 'question-asked', ...(payload as { question: string }) });
  else if (exit === 'converse') events.emit({ type: 'converse', ...(payload as { message: string }) });
}

import { userMessage } from '@agentloop/memory';
import type { Memory, Message } from '@agentloop/memory';
import type { PromptBuilder } from '@agentloop/prompts';
import { AgentloopError } from '@agentloop/tools';
import type { ToolRegistry } from '@agentloop/tools';
import type { AgentExit, AgentResult } from '../agent/agent-result.js';
import { CancelledError } from '../errors/index.js';
import type { AgentEventBus } from '../events/index.js';
import { addUsage, emptyUsage } from '../provider/index.js';
import type { LLMProvider, ModelRequest, ModelSettings, Usage } from '../provider/index.js';
import { ModelStepCollector } from './model-step.js';
import type { ModelStep, ToolProtocolAdapter } from './tool-protocol.js';
import { cancelledRecords, runToolStep } from './tool-step.js';
import type { LoopExit } from './tool-step.js';

/** Everything one run of the loop uses, passed in so the loop holds no state of its own. */
export interface LoopDependencies {
  provider: LLMProvider;
  tools: ToolRegistry;
  memory: Memory;
  prompts: PromptBuilder;
  events: AgentEventBus;
  /** Picks the tool protocol for this iteration (it can change mid-run, e.g. native → xml). */
  protocol: () => ToolProtocolAdapter;
  /** Switches the session to the XML protocol when the server rejects native tools; false when not allowed. */
  fallBackToXml: () => boolean;
  /** Takes the input queued with `agent.send()` since the last call. */
  takeQueuedInput: () => string[];
  maxIterations: number;
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
  firstNewMessage: number;
  started: number;
  /** The protocol of the current iteration. */
  protocol: ToolProtocolAdapter;
}

/**
 * The agent loop: ask the model, run the tools it calls, repeat until it calls a loop-control tool or a
 * limit, a cancel or an error ends the run. Never throws: every ending is an AgentResult, announced by
 * `loop-end` as the last event.
 */
export async function runLoop(deps: LoopDependencies, input: string): Promise<AgentResult> {
  const run = startRun(deps, input);
  try {
    while (run.iterations < deps.maxIterations) {
      deliverQueuedInput(run);
      const step = await callModel(run);
      const exit = step.toolCalls.length > 0 ? await runTools(run, step) : remindOrConverse(run, step);
      if (exit) return endRun(run, loopControlExit(exit));
    }
    deps.events.emit({ type: 'loop-max-reached', runId: deps.runId, iterations: run.iterations, maxIterations: deps.maxIterations });
    return endRun(run, { exit: 'max_iterations', payload: undefined });
  } catch (error) {
    if (deps.signal.aborted) return endRun(run, { exit: 'cancelled', payload: undefined, error: new CancelledError(undefined, deps.signal.reason) });
    return endRun(run, { exit: 'error', payload: undefined, error: AgentloopError.from(error) });
  }
}

function startRun(deps: LoopDependencies, input: string): RunState {
  const run: RunState = {
    deps,
    iterations: 0,
    usage: emptyUsage(),
    consecutiveWithoutTool: 0,
    firstNewMessage: deps.memory.messages().length,
    started: deps.now(),
    protocol: deps.protocol(),
  };
  deps.events.emit({ type: 'loop-start', runId: deps.runId, input });
  deps.memory.append(userMessage(input));
  return run;
}

function deliverQueuedInput(run: RunState): void {
  for (const text of run.deps.takeQueuedInput()) {
    run.deps.memory.append(userMessage(text));
    run.deps.events.emit({ type: 'input-delivered', iteration: run.iterations + 1, text });
  }
}

async function callModel(run: RunState): Promise<ModelStep> {
  const { deps } = run;
  const iteration = ++run.iterations;
  deps.events.emit({ type: 'loop-iteration', runId: deps.runId, iteration });
  const protocol = deps.protocol();
  run.protocol = protocol;
  const definitions = deps.tools.definitions();
  const request: ModelRequest = {
    systemPrompt: deps.prompts.build({ tools: definitions, protocol: protocol.name, provider: deps.provider.id, model: deps.provider.capabilities.modelId }),
    messages: deps.memory.messages().filter((message) => message.role !== 'system'),
    ...protocol.requestTools(definitions),
    ...(deps.settings ? { settings: deps.settings } : {}),
    signal: deps.signal,
  };
  const collector = new ModelStepCollector(deps.events, iteration);
  let failed = false;
  let failure: unknown;
  const decoder = protocol.createDecoder();
  try {
    for await (const chunk of deps.provider.stream(request)) {
      // The XML protocol keeps the model's text with its tool blocks in history.
      if (chunk.type === 'text-delta') collector.recordRawText(chunk.text);
      for (const event of decoder.decode(chunk)) collector.accept(event);
      if (deps.signal.aborted) break;
    }
    for (const event of decoder.flush()) collector.accept(event);
  } catch (error) {
    failed = true;
    failure = error;
  }
  const step = collector.finish(protocol);
  run.usage = addUsage(run.usage, step.usage);
  deps.events.emit({ type: 'usage', iteration, usage: step.usage, total: run.usage, finishReason: step.finishReason });
  if (deps.signal.aborted) {
    // What the model already said stays in history, and each call it made gets a result.
    if (step.message.content.length > 0) deps.memory.append(step.message, ...protocol.resultMessages(cancelledRecords(step.toolCalls)));
    throw new CancelledError(undefined, deps.signal.reason);
  }
  if (failed) {
    if (canFallBackToXml(run, protocol, failure)) {
      deps.events.emit({ type: 'protocol-switch', from: 'native', to: 'xml', reason: (failure as Error).message });
      return callModel(run);
    }
    throw failure;
  }
  deps.memory.append(step.message);
  return step;
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
    step.finishReason === 'length' && call.repaired
      ? { ...call, invalid: 'the call was cut off by the output token limit; send it again, shorter if needed' }
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
    },
    calls,
  );
  deps.memory.append(...protocol.resultMessages(result.records));
  if (deps.signal.aborted) throw new CancelledError(undefined, deps.signal.reason);
  return result.exit;
}

// A reply without a tool call gets a reminder; after two reminders in a row its text is taken as
// `converse`, so a model that will not call tools still reaches the user instead of looping.
function remindOrConverse(run: RunState, step: ModelStep): LoopExit | undefined {
  const { deps } = run;
  const consecutive = ++run.consecutiveWithoutTool;
  deps.events.emit({ type: 'no-tool-call', iteration: run.iterations, text: step.text, consecutive });
  if (consecutive > 2 && step.text.trim() !== '') return { tool: 'converse', payload: { message: step.text.trim() } };
  deps.memory.append(userMessage(run.protocol.reminder(consecutive)));
  return undefined;
}

function loopControlExit(exit: LoopExit): Pick<AgentResult, 'exit' | 'payload'> {
  return { exit: exit.tool, payload: exit.payload } as Pick<AgentResult, 'exit' | 'payload'>;
}

function endRun(run: RunState, outcome: { exit: AgentExit; payload: unknown; error?: AgentloopError }): AgentResult {
  const { deps } = run;
  announceExit(deps.events, outcome.exit, outcome.payload);
  const result = {
    ...outcome,
    usage: run.usage,
    iterations: run.iterations,
    messages: deps.memory.messages().slice(run.firstNewMessage) as Message[],
    durationMs: deps.now() - run.started,
  } as AgentResult;
  deps.events.emit({ type: 'loop-end', runId: deps.runId, result });
  return result;
}

function announceExit(events: AgentEventBus, exit: AgentExit, payload: unknown): void {
  if (exit === 'task_completion') events.emit({ type: 'task-complete', ...(payload as { result: string }) });
  else if (exit === 'ask_question') events.emit({ type: 'question-asked', ...(payload as { question: string }) });
  else if (exit === 'converse') events.emit({ type: 'converse', ...(payload as { message: string }) });
}

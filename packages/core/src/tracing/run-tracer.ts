import type { LLMProvider, ModelRequest, ToolCallPart } from '@agentloop/spec';
import type { ToolRegistry } from '@agentloop/tools';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { AgentResult } from '../loop/agent-result.js';
import { AGENTLOOP, GEN_AI, genAiProviderName } from './gen-ai-attributes.js';
import { inputMessagesJson, outputMessagesJson, systemInstructionsJson, userInputJson } from './gen-ai-messages.js';
import { ModelCallSpan } from './model-call-span.js';
import { openTelemetry } from './open-telemetry.js';
import { recordFailure } from './record-failure.js';
import { TRACER_NAME, type Tracing } from './resolve-tracing.js';
import { ToolCallSpan } from './tool-call-span.js';

/** What a run is traced with, besides the agent's tracing. */
export interface RunTracerInit {
  runId: string;
  sessionId: string;
  tools: ToolRegistry;
}

/**
 * The tracing seam of one run, made by the agent only when tracing is on, so that a run without it makes
 * no span, no closure and no attribute object: the loop calls it through `deps.tracer?.…`. The run's
 * `invoke_agent` span is the parent of a `chat <model>` span per model call and an `execute_tool <name>`
 * span per tool call, whatever context is active when they start (parallel calls are siblings); the run
 * span itself is a child of the context active when the run starts.
 */
export class RunTracer {
  readonly #tracing: Tracing;
  readonly #init: RunTracerInit;
  readonly #tracer: Tracer;
  #span: Span | undefined;
  #context: Context = openTelemetry().context.active();

  constructor(tracing: Tracing, init: RunTracerInit) {
    this.#tracing = tracing;
    this.#init = init;
    // Made once a run has started: the run loaded the API (`openTelemetryLibrary.load()`) before.
    this.#tracer = tracing.tracer ?? openTelemetry().trace.getTracer(TRACER_NAME);
  }

  /** Starts the run's span. */
  start(input: string, provider: LLMProvider): void {
    const { agentName, recordContent } = this.#tracing;
    const tracer = this.#tracer;
    const attributes: Attributes = {
      [GEN_AI.operationName]: 'invoke_agent',
      [GEN_AI.providerName]: genAiProviderName(provider.id),
      [GEN_AI.requestModel]: provider.capabilities.modelId,
      [GEN_AI.conversationId]: this.#init.sessionId,
      [AGENTLOOP.runId]: this.#init.runId,
    };
    if (agentName !== undefined) attributes[GEN_AI.agentName] = agentName;
    if (recordContent) attributes[GEN_AI.inputMessages] = userInputJson(input);
    const parent = openTelemetry().context.active();
    const name = agentName === undefined ? 'invoke_agent' : `invoke_agent ${agentName}`;
    this.#span = tracer.startSpan(name, { kind: openTelemetry().SpanKind.INTERNAL, attributes }, parent);
    this.#context = openTelemetry().trace.setSpan(parent, this.#span);
  }

  /** Starts the span of a model call; the loop reads the stream through it and ends it. */
  modelCall(request: ModelRequest, provider: LLMProvider, iteration: number): ModelCallSpan {
    const model = provider.capabilities.modelId;
    const attributes: Attributes = {
      [GEN_AI.operationName]: 'chat',
      [GEN_AI.providerName]: genAiProviderName(provider.id),
      [GEN_AI.requestModel]: model,
      [GEN_AI.conversationId]: this.#init.sessionId,
      [AGENTLOOP.iteration]: iteration,
    };
    const { settings, stopSequences } = request;
    if (settings?.maxTokens !== undefined) attributes[GEN_AI.requestMaxTokens] = settings.maxTokens;
    if (settings?.temperature !== undefined) attributes[GEN_AI.requestTemperature] = settings.temperature;
    if (settings?.topP !== undefined) attributes[GEN_AI.requestTopP] = settings.topP;
    if (stopSequences && stopSequences.length > 0) attributes[GEN_AI.requestStopSequences] = [...stopSequences];
    if (this.#tracing.recordContent) {
      attributes[GEN_AI.systemInstructions] = systemInstructionsJson(request.systemPrompt);
      attributes[GEN_AI.inputMessages] = inputMessagesJson(request.messages);
    }
    const span = this.#tracer.startSpan(
      `chat ${model}`,
      { kind: openTelemetry().SpanKind.CLIENT, attributes },
      this.#context,
    );
    return new ModelCallSpan(span, openTelemetry().trace.setSpan(this.#context, span), this.#tracing.recordContent);
  }

  /** Starts the span of a tool call; the tool runs inside it (`run`) and the loop ends it with the outcome. */
  toolCall(call: ToolCallPart, iteration: number): ToolCallSpan {
    const attributes: Attributes = {
      [GEN_AI.operationName]: 'execute_tool',
      [GEN_AI.toolName]: call.toolName,
      [GEN_AI.toolCallId]: call.toolCallId,
      [GEN_AI.toolType]: 'function',
      [AGENTLOOP.iteration]: iteration,
    };
    const description = this.#init.tools.get(call.toolName)?.tool.description;
    if (description !== undefined) attributes[GEN_AI.toolDescription] = description;
    if (this.#tracing.recordContent) attributes[GEN_AI.toolCallArguments] = JSON.stringify(call.arguments ?? null);
    const span = this.#tracer.startSpan(
      `execute_tool ${call.toolName}`,
      { kind: openTelemetry().SpanKind.INTERNAL, attributes },
      this.#context,
    );
    return new ToolCallSpan(span, openTelemetry().trace.setSpan(this.#context, span), this.#tracing.recordContent);
  }

  /** Ends the run's span with the run's totals and exit; an `error` exit marks it as failed, a cancel does not. */
  end(result: AgentResult<unknown>): void {
    const span = this.#span;
    if (!span) return;
    this.#span = undefined;
    span.setAttributes({
      [GEN_AI.usageInputTokens]: result.usage.inputTokens,
      [GEN_AI.usageOutputTokens]: result.usage.outputTokens,
      [AGENTLOOP.exit]: result.exit,
      [AGENTLOOP.iterations]: result.iterations,
    });
    if (this.#tracing.recordContent) {
      const text = exitText(result);
      if (text !== undefined)
        span.setAttribute(GEN_AI.outputMessages, outputMessagesJson([{ type: 'text', text }], result.exit));
    }
    // Success leaves the status unset: instrumentation libraries leave OK to the app.
    if (result.exit === 'error') recordFailure(span, result.error);
    span.end();
  }
}

/** What the run said to the user at its end: the exit tool's text (a typed result as JSON). */
function exitText(result: AgentResult<unknown>): string | undefined {
  switch (result.exit) {
    case 'task_completion':
      return typeof result.payload.result === 'string' ? result.payload.result : JSON.stringify(result.payload.result);
    case 'ask_question':
      return result.payload.question;
    case 'converse':
      return result.payload.message;
    case 'max_iterations':
      return result.payload?.result;
    default:
      return undefined;
  }
}

import type { LLMProvider, ModelChunk, ModelRequest } from '@agentloop/spec';
import type { Context, Span } from '@opentelemetry/api';
import type { ModelStep } from '../loop/tool-protocol.js';
import { AGENTLOOP, GEN_AI } from './gen-ai-attributes.js';
import { genAiFinishReason, outputMessagesJson } from './gen-ai-messages.js';
import { openTelemetry } from './open-telemetry.js';
import { recordFailure } from './record-failure.js';

/** How a model call ended, as the loop saw it. */
export interface ModelCallEnding {
  /** What the stream threw, if it threw. */
  error?: unknown;
  /** True when the stream ended with a finish chunk. */
  finished: boolean;
  /** True when the run was cancelled during the call. */
  cancelled: boolean;
}

/** The `chat <model>` span of one model call, made by RunTracer.modelCall. */
export class ModelCallSpan {
  readonly #span: Span;
  readonly #context: Context;
  readonly #recordContent: boolean;
  readonly #started = performance.now();
  #sawChunk = false;

  constructor(span: Span, parent: Context, recordContent: boolean) {
    this.#span = span;
    this.#context = parent;
    this.#recordContent = recordContent;
  }

  /**
   * The provider's stream for the request, each read made with this span as the active one, so that the
   * spans of an instrumented HTTP client are its children. Notes the time to the first chunk and each
   * retry (a span event) on the way.
   */
  stream(provider: LLMProvider, request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const active = this.#context;
    const { context } = openTelemetry();
    const observe = (result: IteratorResult<readonly ModelChunk[]>) => {
      if (!result.done) for (const chunk of result.value) this.#observe(chunk);
      return result;
    };
    return {
      [Symbol.asyncIterator]: () => {
        const iterator = context.with(active, () => provider.stream(request)[Symbol.asyncIterator]());
        return {
          next: () => context.with(active, () => iterator.next()).then(observe),
          return: (value?: unknown) =>
            iterator.return
              ? context.with(active, () => (iterator.return as NonNullable<typeof iterator.return>)(value))
              : Promise.resolve({ done: true, value: value as readonly ModelChunk[] }),
        };
      },
    };
  }

  /** Ends the span with the step's usage and finish reason, or with what failed. */
  end(step: ModelStep, ending: ModelCallEnding): void {
    const span = this.#span;
    const { usage } = step;
    span.setAttributes({
      [GEN_AI.usageInputTokens]: usage.inputTokens,
      [GEN_AI.usageOutputTokens]: usage.outputTokens,
      [GEN_AI.usageCacheReadInputTokens]: usage.cacheReadTokens,
      [GEN_AI.usageCacheCreationInputTokens]: usage.cacheWriteTokens,
      [GEN_AI.usageReasoningOutputTokens]: usage.reasoningTokens,
    });
    if (ending.finished) span.setAttribute(GEN_AI.responseFinishReasons, [genAiFinishReason(step.finishReason)]);
    if (this.#recordContent && step.message.content.length > 0) {
      span.setAttribute(
        GEN_AI.outputMessages,
        outputMessagesJson(step.message.content, genAiFinishReason(step.finishReason)),
      );
    }
    if (!ending.cancelled) {
      if (ending.error !== undefined) recordFailure(span, ending.error);
      else if (!ending.finished) {
        span.setAttribute(GEN_AI.errorType, 'stream_broken');
        span.setStatus({
          code: openTelemetry().SpanStatusCode.ERROR,
          message: 'The model stream ended without a finish reason.',
        });
      }
    }
    span.end();
  }

  #observe(chunk: ModelChunk): void {
    if (!this.#sawChunk) {
      this.#sawChunk = true;
      this.#span.setAttribute(GEN_AI.responseTimeToFirstChunk, (performance.now() - this.#started) / 1000);
    }
    if (chunk.type === 'retry') {
      this.#span.addEvent(AGENTLOOP.retry, {
        [AGENTLOOP.retryAttempt]: chunk.attempt,
        [AGENTLOOP.retryDelayMs]: chunk.delayMs,
        [GEN_AI.errorType]: chunk.error.code,
        'exception.message': chunk.error.message,
      });
    }
  }
}

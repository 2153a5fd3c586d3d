import type { ToolCallOutcome } from '@agentloop/tools';
import type { Context, Span } from '@opentelemetry/api';
import { GEN_AI } from './gen-ai-attributes.js';
import { openTelemetry } from './open-telemetry.js';

/** The `execute_tool <name>` span of one tool call, made by RunTracer.toolCall. */
export class ToolCallSpan {
  readonly #span: Span;
  readonly #context: Context;
  readonly #recordContent: boolean;

  constructor(span: Span, active: Context, recordContent: boolean) {
    this.#span = span;
    this.#context = active;
    this.#recordContent = recordContent;
  }

  /** Calls `run(...args)` with this span as the active one, so that spans the tool makes are its children. */
  run<Args extends unknown[], Result>(run: (...args: Args) => Result, ...args: Args): Result {
    return openTelemetry().context.with(this.#context, run, undefined, ...args);
  }

  /** Ends the span with the call's outcome; a failed call (other than a cancelled one) marks it as an error. */
  end(outcome: ToolCallOutcome): void {
    const span = this.#span;
    if (this.#recordContent) span.setAttribute(GEN_AI.toolCallResult, outcome.content);
    if (outcome.status === 'error' && outcome.code !== 'cancelled') {
      span.setAttribute(GEN_AI.errorType, outcome.code);
      // Tool failures are results, not exceptions: the exception event carries the code and the text.
      span.recordException({ name: outcome.code, message: outcome.content });
      span.setStatus({ code: openTelemetry().SpanStatusCode.ERROR, message: outcome.content });
    }
    span.end();
  }
}

import { AgentloopError } from '@agentloop/spec';
import type { Span } from '@opentelemetry/api';
import { GEN_AI } from './gen-ai-attributes.js';
import { openTelemetry } from './open-telemetry.js';

/** Marks a span as failed, as the conventions ask: status ERROR, `error.type` (the error's code), the exception. */
export function recordFailure(span: Span, error: unknown): void {
  const failure = AgentloopError.from(error);
  span.setAttribute(GEN_AI.errorType, failure.code);
  span.recordException(failure);
  span.setStatus({ code: openTelemetry().SpanStatusCode.ERROR, message: failure.message });
}

import type { Tracer } from '@opentelemetry/api';
import { AgentUsageError } from '../errors/index.js';
import type { TracingOption } from './tracing-options.js';

/** The instrumentation scope of agentloop's spans. */
export const TRACER_NAME = '@agentloop/core';

/** What an agent's `tracing` option comes to, worked out once when the agent is made. */
export interface Tracing {
  /**
   * The app's tracer, or undefined for agentloop's own from the global tracer provider, got when a run
   * starts: the OpenTelemetry API is loaded then, at an async point an app's bundler can follow.
   */
  tracer: Tracer | undefined;
  recordContent: boolean;
  agentName: string | undefined;
}

/** The agent's tracing, or undefined when it is off. Throws an AgentUsageError on an option it cannot use. */
export function resolveTracing(option: TracingOption | undefined): Tracing | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return { tracer: undefined, recordContent: false, agentName: undefined };
  if (typeof option !== 'object' || option === null) {
    throw new AgentUsageError(
      `tracing must be true, false or { tracer?, recordContent?, agentName? }, got ${JSON.stringify(option)}.`,
      'invalid_option',
    );
  }
  const { tracer, recordContent, agentName } = option;
  if (tracer !== undefined && typeof tracer?.startSpan !== 'function') {
    throw new AgentUsageError(
      'tracing.tracer must be an OpenTelemetry Tracer (with startSpan), e.g. trace.getTracer("my-app").',
      'invalid_option',
    );
  }
  if (recordContent !== undefined && typeof recordContent !== 'boolean') {
    throw new AgentUsageError(
      `tracing.recordContent must be true or false, got ${JSON.stringify(recordContent)}.`,
      'invalid_option',
    );
  }
  if (agentName !== undefined && (typeof agentName !== 'string' || agentName.trim() === '')) {
    throw new AgentUsageError(
      `tracing.agentName must be non-empty text, got ${JSON.stringify(agentName)}.`,
      'invalid_option',
    );
  }
  return {
    tracer,
    recordContent: recordContent ?? false,
    agentName,
  };
}

export type { ModelCallEnding } from './model-call-span.js';
export { ModelCallSpan } from './model-call-span.js';
export { openTelemetryLibrary } from './open-telemetry.js';
export type { Tracing } from './resolve-tracing.js';
export { resolveTracing, TRACER_NAME } from './resolve-tracing.js';
export type { RunTracerInit } from './run-tracer.js';
export { RunTracer } from './run-tracer.js';
export { ToolCallSpan } from './tool-call-span.js';
export type { TracingOption, TracingOptions } from './tracing-options.js';

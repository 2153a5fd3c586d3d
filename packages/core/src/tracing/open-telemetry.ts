import { createRequire } from 'node:module';

type OpenTelemetryApi = typeof import('@opentelemetry/api');

let api: OpenTelemetryApi | undefined;

/**
 * The OpenTelemetry API, loaded the first time an agent with tracing on is made: tracing is off unless
 * asked for, and importing the API cost every process that loaded core time at start-up.
 * It ships CommonJS, so the synchronous code that makes spans loads it on use. Its global
 * registrations (tracer provider, context manager) live on `globalThis` under one key shared by its
 * CommonJS and ES builds, so what an app registers through `import '@opentelemetry/api'` is what this
 * copy sees.
 */
export function openTelemetry(): OpenTelemetryApi {
  api ??= createRequire(import.meta.url)('@opentelemetry/api') as OpenTelemetryApi;
  return api;
}

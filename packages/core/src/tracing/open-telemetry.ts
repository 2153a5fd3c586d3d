import { lazyLibrary } from '@agentloop/tools/internal';

type OpenTelemetryApi = typeof import('@opentelemetry/api');

/**
 * The OpenTelemetry API, loaded when the first run of an agent with tracing on starts: tracing is off
 * unless asked for, and importing the API cost every process that loaded core time at start-up. The run
 * imports it (which an app's bundler follows) so that the synchronous code that makes spans has it. Its
 * global registrations (tracer provider, context manager) live on `globalThis` under one key shared by its
 * CommonJS and ES builds, so what an app registers through `import '@opentelemetry/api'` is what this
 * copy sees.
 */
export const openTelemetryLibrary = lazyLibrary<OpenTelemetryApi>({
  name: '@opentelemetry/api',
  from: import.meta.url,
  load: () => import('@opentelemetry/api'),
  prepare: 'await agent.run()',
});

/** The OpenTelemetry API, for the synchronous code that makes spans. */
export function openTelemetry(): OpenTelemetryApi {
  return openTelemetryLibrary.get();
}

// An app as a user would write it, to be bundled (src/test-support/bundle-app.ts) and run from a folder
// without node_modules: two runs on the OpenAI provider, native and XML, with a JSON Schema tool, the
// workspace tools (in the working directory) and tracing.
// It prints one JSON line per run. The server and model come from OPENAI_BASE_URL and OPENAI_MODEL.
import { DefaultAgent, defineTool } from '@agentloop/core';
import { OpenAIProvider } from '@agentloop/providers/openai';
import { createWorkspaceTools, preloadWorkspaceTools } from '@agentloop/workspace-tools';
import { type Span, type Tracer, type TracerProvider, trace } from '@opentelemetry/api';

const spans: string[] = [];

/** A tracer that records the names of the spans it starts, registered as the app's global provider. */
function recordingTracer(): Tracer {
  const startSpan = (name: string): Span => {
    spans.push(name);
    const span: Span = {
      spanContext: () => ({ traceId: '00000000000000000000000000000001', spanId: '0000000000000001', traceFlags: 1 }),
      setAttribute: () => span,
      setAttributes: () => span,
      addEvent: () => span,
      addLink: () => span,
      addLinks: () => span,
      setStatus: () => span,
      updateName: () => span,
      end: () => {},
      isRecording: () => true,
      recordException: () => {},
    };
    return span;
  };
  return {
    startSpan,
    startActiveSpan: (() => {
      throw new Error('not used by agentloop');
    }) as Tracer['startActiveSpan'],
  };
}

const tracerProvider: TracerProvider = { getTracer: () => recordingTracer() };
trace.setGlobalTracerProvider(tracerProvider);

const clock = defineTool({
  name: 'get_time',
  description: 'The time in a time zone.',
  parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
  execute: async (args) => `12:00 ${(args as { zone: string }).zone}`,
});

const workspaceTools = createWorkspaceTools();
// A bundle cannot require what the workspace tools' synchronous matchers need (picomatch, ignore): import it.
await preloadWorkspaceTools(workspaceTools);

async function runOnce(toolProtocol: 'native' | 'xml'): Promise<void> {
  const provider = new OpenAIProvider({
    model: process.env.OPENAI_MODEL ?? 'gpt-4o',
    apiKey: 'sk-local',
    baseURL: process.env.OPENAI_BASE_URL,
  });
  const agent = new DefaultAgent(provider, { toolProtocol, tracing: true });
  agent.registerTool(clock);
  for (const tool of workspaceTools) agent.registerTool(tool);
  const calls: unknown[] = [];
  agent.on('tool-call', (event) => calls.push({ name: event.name, arguments: event.arguments }));
  spans.length = 0;
  const result = await agent.run('What time is it in UTC?');
  const error = result.exit === 'error' ? String(result.error?.message) : undefined;
  console.log(JSON.stringify({ toolProtocol, exit: result.exit, payload: result.payload, error, calls, spans }));
}

await runOnce('native');
await runOnce('xml');

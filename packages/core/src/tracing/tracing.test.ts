import { type LLMProvider, ProviderError } from '@agentloop/spec';
import { defineTool } from '@agentloop/tools';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentOptions } from '../agent/agent-options.js';
import { DefaultAgent } from '../agent/default-agent.js';
import { complete, echoTool } from '../test-support/agent-harness.js';
import { ScriptedProvider, type ScriptStep } from '../testing/index.js';

// Spans go to the OpenTelemetry SDK's in-memory exporter; the async-hooks context manager makes
// `context.active()` follow async calls, as an app's SDK set-up would.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('agentloop-test');
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});
afterEach(() => {
  exporter.reset();
  trace.disable();
});

function tracedAgent(steps: ScriptStep[], options: AgentOptions = {}) {
  const scripted = new ScriptedProvider(steps, { chunkSize: 100 });
  const agent = new DefaultAgent(scripted, {
    tools: [echoTool],
    sessionId: 'session-1',
    createId: () => 'run-1',
    tracing: { tracer },
    ...options,
  });
  return { agent, scripted };
}

const spans = () => exporter.getFinishedSpans();
const named = (prefix: string) => spans().filter((span) => span.name.startsWith(prefix));
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: Pick<ReadableSpan, 'spanContext'>) => span.spanContext().spanId;
const only = (prefix: string) => {
  const found = named(prefix);
  expect(found).toHaveLength(1);
  return found[0]!;
};

const echoTwice: ScriptStep = {
  text: 'Echoing.',
  toolCalls: [
    { name: 'echo', arguments: { text: 'a' }, id: 'call_a' },
    { name: 'echo', arguments: { text: 'b' }, id: 'call_b' },
  ],
  usage: { inputTokens: 120, outputTokens: 30, cacheReadTokens: 100 },
};

describe('tracing', () => {
  it('is off by default: a run makes no span even with a global tracer provider', async () => {
    trace.setGlobalTracerProvider(provider);
    const agent = new DefaultAgent(new ScriptedProvider([complete('done')]), { tools: [echoTool] });
    await agent.run('go');
    expect(spans()).toEqual([]);
  });

  it('tracing: true uses the global tracer provider', async () => {
    trace.setGlobalTracerProvider(provider);
    const agent = new DefaultAgent(new ScriptedProvider([complete('done')]), { tracing: true });
    await agent.run('go');
    expect(spans().map((span) => [span.name, span.instrumentationScope.name])).toEqual([
      ['chat scripted-model', '@agentloop/core'],
      ['execute_tool task_completion', '@agentloop/core'],
      ['invoke_agent', '@agentloop/core'],
    ]);
  });

  it('tracing: true records no prompts, outputs, arguments or results: recordContent is off by default', async () => {
    trace.setGlobalTracerProvider(provider);
    const agent = new DefaultAgent(new ScriptedProvider([echoTwice, complete('Echoed.')]), {
      tools: [echoTool],
      tracing: true,
    });
    await agent.run('Echo a and b.');
    expect(spans()).toHaveLength(6);
    const keys = spans().flatMap((span) => Object.keys(span.attributes));
    expect(keys.filter((key) => /messages|instructions|arguments|result/.test(key))).toEqual([]);
  });

  it('makes a run span with a chat span per model call and an execute_tool span per call, all its children', async () => {
    const { agent } = tracedAgent([echoTwice, complete('Echoed.')], { tracing: { tracer, agentName: 'Echoer' } });
    const result = await agent.run('Echo a and b.');
    expect(result.exit).toBe('task_completion');

    const run = only('invoke_agent');
    expect(run.name).toBe('invoke_agent Echoer');
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(run)).toBeUndefined();
    expect(run.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted-model',
      'gen_ai.conversation.id': 'session-1',
      'gen_ai.agent.name': 'Echoer',
      'agentloop.run.id': 'run-1',
      'gen_ai.usage.input_tokens': 130,
      'gen_ai.usage.output_tokens': 35,
      'agentloop.run.exit': 'task_completion',
      'agentloop.run.iterations': 2,
    });
    expect(run.status.code).toBe(SpanStatusCode.UNSET);

    const chats = named('chat ');
    expect(chats.map((span) => span.name)).toEqual(['chat scripted-model', 'chat scripted-model']);
    expect(chats.every((span) => parentOf(span) === idOf(run) && span.kind === SpanKind.CLIENT)).toBe(true);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.request.model': 'scripted-model',
      'gen_ai.conversation.id': 'session-1',
      'agentloop.iteration': 1,
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.usage.cache_read.input_tokens': 100,
      'gen_ai.response.finish_reasons': ['tool_call'],
    });
    expect(chats[0]!.attributes['gen_ai.response.time_to_first_chunk']).toBeTypeOf('number');

    const tools = named('execute_tool');
    expect(tools.map((span) => span.name).sort()).toEqual([
      'execute_tool echo',
      'execute_tool echo',
      'execute_tool task_completion',
    ]);
    expect(tools.every((span) => parentOf(span) === idOf(run) && span.kind === SpanKind.INTERNAL)).toBe(true);
    const callA = tools.find((span) => span.attributes['gen_ai.tool.call.id'] === 'call_a');
    expect(callA?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.call.id': 'call_a',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Echoes the text back.',
      'agentloop.iteration': 1,
    });
    // Prompts and outputs stay off the spans unless asked for.
    const keys = spans().flatMap((span) => Object.keys(span.attributes));
    expect(keys.filter((key) => /messages|instructions|arguments|result/.test(key))).toEqual([]);
  });

  it('records prompts, outputs, tool arguments and results only with recordContent', async () => {
    const { agent } = tracedAgent([echoTwice, complete('Echoed.')], { tracing: { tracer, recordContent: true } });
    await agent.run('Echo a and b.');

    const run = only('invoke_agent');
    expect(JSON.parse(run.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Echo a and b.' }] },
    ]);
    expect(JSON.parse(run.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Echoed.' }], finish_reason: 'task_completion' },
    ]);
    const [first, second] = named('chat ');
    expect(first!.attributes['gen_ai.system_instructions']).toBeTypeOf('string');
    expect(JSON.parse(first!.attributes['gen_ai.output.messages'] as string)).toEqual([
      {
        role: 'assistant',
        parts: [
          { type: 'text', content: 'Echoing.' },
          { type: 'tool_call', id: 'call_a', name: 'echo', arguments: { text: 'a' } },
          { type: 'tool_call', id: 'call_b', name: 'echo', arguments: { text: 'b' } },
        ],
        finish_reason: 'tool_call',
      },
    ]);
    expect(JSON.parse(second!.attributes['gen_ai.input.messages'] as string).slice(2)).toEqual([
      {
        role: 'tool',
        parts: [
          { type: 'tool_call_response', id: 'call_a', response: 'echo: a' },
          { type: 'tool_call_response', id: 'call_b', response: 'echo: b' },
        ],
      },
    ]);
    const callB = named('execute_tool echo').find((span) => span.attributes['gen_ai.tool.call.id'] === 'call_b');
    expect(callB?.attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"text":"b"}',
      'gen_ai.tool.call.result': 'echo: b',
    });
  });

  it('records a typed result of a run with an output schema as JSON', async () => {
    const { agent } = tracedAgent(
      [{ toolCalls: [{ name: 'task_completion', arguments: { result: { city: 'Paris', population: 2_100_000 } } }] }],
      { tracing: { tracer, recordContent: true } },
    );
    const result = await agent.run('Biggest city of France?', {
      output: z.object({ city: z.string(), population: z.number() }),
    });
    expect(result.exit).toBe('task_completion');
    expect(JSON.parse(only('invoke_agent').attributes['gen_ai.output.messages'] as string)).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', content: '{"city":"Paris","population":2100000}' }],
        finish_reason: 'task_completion',
      },
    ]);
  });

  it('marks a failed model call and the run as errors, with the error code and the exception', async () => {
    const failure = new ProviderError('anthropic API error (400 invalid_request_error): bad', {
      code: 'invalid_request',
      provider: 'anthropic',
      statusCode: 400,
    });
    const { agent } = tracedAgent([{ text: 'Hal', error: failure }]);
    const result = await agent.run('go');
    expect(result.exit).toBe('error');

    for (const span of [only('chat '), only('invoke_agent')]) {
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: failure.message });
      expect(span.attributes['error.type']).toBe('invalid_request');
      expect(span.events.map((event) => [event.name, event.attributes?.['exception.message']])).toEqual([
        ['exception', failure.message],
      ]);
    }
  });

  it('marks a failed tool call as an error with its failure code, and notes retries on the model call', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails.',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full');
      },
    });
    const retry = {
      type: 'retry' as const,
      attempt: 1,
      delayMs: 250,
      discardOutput: false,
      error: new ProviderError('overloaded', { code: 'overloaded', provider: 'scripted' }),
    };
    const { agent } = tracedAgent(
      [{ chunks: [retry], toolCalls: [{ name: 'broken', arguments: {} }] }, complete('ok')],
      {
        tools: [broken],
      },
    );
    await agent.run('go');

    const tool = only('execute_tool broken');
    expect(tool.status.code).toBe(SpanStatusCode.ERROR);
    expect(tool.status.message).toContain('disk full');
    expect(tool.attributes['error.type']).toBe('tool_failed');
    expect(tool.events.map((event) => event.name)).toEqual(['exception']);
    const [firstCall] = named('chat ');
    expect(firstCall!.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'agentloop.retry',
        {
          'agentloop.retry.attempt': 1,
          'agentloop.retry.delay_ms': 250,
          'error.type': 'overloaded',
          'exception.message': 'overloaded',
        },
      ],
    ]);
    expect(only('invoke_agent').status.code).toBe(SpanStatusCode.UNSET);
  });

  it("nests a tool's own spans under its execute_tool span, and the provider's under the chat span", async () => {
    const fetching = defineTool({
      name: 'fetch_page',
      description: 'Fetches a page.',
      parameters: z.object({ url: z.string() }),
      execute: async ({ url }) => {
        // What an instrumented HTTP client does: a span under whatever is active.
        const span = tracer.startSpan(`GET ${url}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        span.end();
        return 'page';
      },
    });
    const scripted = new ScriptedProvider([
      { toolCalls: [{ name: 'fetch_page', arguments: { url: '/a' } }] },
      complete('fetched'),
    ]);
    const instrumented: LLMProvider = {
      specificationVersion: 'v2',
      id: scripted.id,
      capabilities: scripted.capabilities,
      async *stream(request) {
        const span = tracer.startSpan('POST /v1/messages');
        await Promise.resolve();
        span.end();
        yield* scripted.stream(request);
      },
    };
    const agent = new DefaultAgent(instrumented, { tools: [fetching], tracing: { tracer } });
    await agent.run('Fetch /a');

    const toolSpan = only('execute_tool fetch_page');
    expect(parentOf(only('GET /a'))).toBe(idOf(toolSpan));
    const requests = named('POST ');
    const chats = named('chat ');
    expect(requests).toHaveLength(2);
    expect(requests.map(parentOf)).toEqual(chats.map(idOf));
  });

  it('makes the run span a child of the span active when the run starts', async () => {
    const { agent } = tracedAgent([complete('done')]);
    const request = tracer.startSpan('POST /chat');
    await context.with(trace.setSpan(context.active(), request), () => agent.run('go'));
    request.end();
    const run = only('invoke_agent');
    expect(parentOf(run)).toBe(idOf(request));
    expect(run.spanContext().traceId).toBe(request.spanContext().traceId);
  });

  it('traces runs in the XML protocol the same way', async () => {
    const block = JSON.stringify({ server_name: 'local', tool_name: 'echo', arguments: { text: 'x' } });
    const { agent } = tracedAgent(
      [
        { text: `<tool>\n${block}\n</tool>`, finishReason: 'stop-sequence' },
        {
          text: `<tool>\n${JSON.stringify({ server_name: 'local', tool_name: 'task_completion', arguments: { result: 'ok' } })}\n</tool>`,
          finishReason: 'stop-sequence',
        },
      ],
      { toolProtocol: 'xml' },
    );
    const result = await agent.run('go');
    expect(result.exit).toBe('task_completion');
    const [chat] = named('chat ');
    expect(chat!.attributes).toMatchObject({
      'gen_ai.request.stop_sequences': expect.arrayContaining(['</tool>']),
      'gen_ai.response.finish_reasons': ['stop'],
    });
    expect(
      named('execute_tool')
        .map((span) => span.name)
        .sort(),
    ).toEqual(['execute_tool echo', 'execute_tool task_completion']);
  });

  it('refuses a tracing option it cannot use', () => {
    const make = (tracing: unknown) => () =>
      new DefaultAgent(new ScriptedProvider([]), { tracing: tracing as AgentOptions['tracing'] });
    expect(make('yes')).toThrow(/tracing must be true, false or/);
    expect(make({ tracer: {} })).toThrow(/tracing.tracer must be an OpenTelemetry Tracer/);
    expect(make({ recordContent: 'all' })).toThrow(/tracing.recordContent must be true or false/);
    expect(make({ agentName: ' ' })).toThrow(/tracing.agentName must be non-empty text/);
  });
});

describe('tracing of sub-agents', () => {
  it("puts a sub-agent's run span under the parent's tool span", async () => {
    const child = tracedAgent([complete('child done')], { tracing: { tracer, agentName: 'researcher' } });
    const tool = child.agent.asTool({ name: 'researcher', description: 'Researches.' });
    const { agent } = tracedAgent(
      [{ toolCalls: [{ name: 'researcher', id: 'call_r', arguments: { task: 'look' } }] }, complete('done')],
      { tools: [tool] },
    );

    await agent.run('go');

    const toolSpan = only('execute_tool researcher');
    const childRun = only('invoke_agent researcher');
    expect(parentOf(childRun)).toBe(idOf(toolSpan));
    expect(childRun.spanContext().traceId).toBe(toolSpan.spanContext().traceId);
  });
});

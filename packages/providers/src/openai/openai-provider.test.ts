import type { Message } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import {
  chatAnswer,
  chunksOfType,
  collectChunks,
  collectUntilError,
  jsonResponse,
  modelRequest,
  rawSseFrames,
  readFixture,
  readJsonFixture,
  sseResponse,
  testProviderOptions,
  textOf,
  toolCallsOf,
  useFixtureServer,
  WEATHER_TOOL,
} from '../test-support/index.js';
import { OpenAIProvider } from './openai-provider.js';
import type { OpenAIProviderOptions } from './openai-provider-options.js';
import { openEndedSseResponse } from './test-support/open-ended-sse-response.js';

// Recorded Chat Completions traffic (see src/__fixtures__/README.md) served from a local server.
const server = useFixtureServer();

function provider(options: Partial<OpenAIProviderOptions> = {}) {
  const shared = testProviderOptions(`${server().url}/v1`);
  let ids = 0;
  const instance = new OpenAIProvider({
    model: 'gpt-4o',
    compatible: false,
    ...shared.options,
    generateId: () => `call_generated_${++ids}`,
    ...options,
  });
  return { provider: instance, waits: shared.waits };
}

const recorded = (hash: string) => sseResponse(rawSseFrames(readFixture(`openai-python/${hash}.bin`)));
const TEXT_SSE = 'e2aad469b71d1d4894ff833ea147020a9d875eb7ce644a0ff355581690a4cbfd';

describe('OpenAIProvider against recorded responses', () => {
  it('streams plain text with usage, asking for usage in the stream', async () => {
    server().reply(recorded(TEXT_SSE));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(textOf(chunks)).toMatch(/^I'm unable to provide real-time weather updates\./);
    expect(chunksOfType(chunks, 'usage')).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: 14, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop', rawReason: 'stop' });
    expect(server().requests[0]?.path).toBe('/v1/chat/completions');
    expect(server().requests[0]?.headers.authorization).toBe('Bearer test-key');
    expect(server().requests[0]?.body).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "You are a helpful assistant.",
            "role": "system",
          },
          {
            "content": "Hello!",
            "role": "user",
          },
        ],
        "model": "gpt-4o",
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
      }
    `);
  });

  it('assembles tool-call arguments streamed in pieces and sends tool_choice required', async () => {
    server().reply(recorded('c6aa7e397b7123c3501f25df3a05d4daf7e8ad6d61ffa406ab5361fe36a8d5b1'));
    const chunks = await collectChunks(
      provider().provider.stream(modelRequest({ tools: [WEATHER_TOOL], toolChoice: 'required' })),
    );
    expect(chunksOfType(chunks, 'tool-call-start')).toEqual([
      { type: 'tool-call-start', toolCallId: 'call_c91SqDXlYFuETYv8mUHzz6pp', toolName: 'GetWeatherArgs' },
    ]);
    expect(toolCallsOf(chunks)).toEqual([
      {
        id: 'call_c91SqDXlYFuETYv8mUHzz6pp',
        name: 'GetWeatherArgs',
        arguments: { city: 'Edinburgh', country: 'UK', units: 'c' },
      },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'tool_calls' });
    const body = server().requests[0]?.body as Record<string, unknown>;
    expect(body.tool_choice).toBe('required');
    expect(body.tools).toMatchInlineSnapshot(`
      [
        {
          "function": {
            "description": "Get the current weather in a given location",
            "name": "get_weather",
            "parameters": {
              "properties": {
                "location": {
                  "description": "The city and state, e.g. San Francisco, CA",
                  "type": "string",
                },
              },
              "required": [
                "location",
              ],
              "type": "object",
            },
          },
          "type": "function",
        },
      ]
    `);
  });

  it('yields parallel tool calls keyed by index', async () => {
    server().reply(recorded('f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b'));
    const chunks = await collectChunks(provider().provider.stream(modelRequest({ tools: [WEATHER_TOOL] })));
    expect(toolCallsOf(chunks)).toEqual([
      {
        id: 'call_JMW1whyEaYG438VE1OIflxA2',
        name: 'GetWeatherArgs',
        arguments: { city: 'Edinburgh', country: 'GB', units: 'c' },
      },
      {
        id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou',
        name: 'get_stock_price',
        arguments: { ticker: 'AAPL', exchange: 'NASDAQ' },
      },
    ]);
    expect(chunksOfType(chunks, 'usage')[0]?.usage).toMatchObject({ inputTokens: 149, outputTokens: 60 });
  });

  it('reports finish_reason length', async () => {
    server().reply(recorded('4cc50a6135d254573a502310e6af1246f55edb6ad95fa24059f160996b68866d'));
    const chunks = await collectChunks(provider().provider.stream(modelRequest({ settings: { maxTokens: 1 } })));
    expect(textOf(chunks)).toBe('{"');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'length', rawReason: 'length' });
    expect(server().requests[0]?.body).toMatchObject({ max_completion_tokens: 1 });
  });

  it('yields a refusal as text with finish reason refusal', async () => {
    server().reply(recorded('173417d553406f034f643e5db3f8d591fb691ebac56f5ae39a22cc7d455c5353'));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(textOf(chunks)).toBe("I'm sorry, I can't assist with that request.");
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'refusal', rawReason: 'stop' });
  });

  it('sends each tool result as its own tool message after the assistant tool calls', async () => {
    server().reply(recorded(TEXT_SSE));
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'Two cities, two calls.' },
          { type: 'text', text: 'Checking both.' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', arguments: { location: 'Paris' } },
          { type: 'tool-call', toolCallId: 'call_2', toolName: 'get_weather', arguments: { location: 'Rome' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', content: '18°C', isError: false },
          {
            type: 'tool-result',
            toolCallId: 'call_2',
            toolName: 'get_weather',
            content: 'service down',
            isError: true,
          },
        ],
      },
    ];
    await collectChunks(provider().provider.stream(modelRequest({ messages: history, tools: [WEATHER_TOOL] })));
    const body = server().requests[0]?.body as { messages: unknown };
    expect(body.messages).toMatchInlineSnapshot(`
      [
        {
          "content": "You are a helpful assistant.",
          "role": "system",
        },
        {
          "content": "Weather in Paris and Rome?",
          "role": "user",
        },
        {
          "content": "Checking both.",
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"location":"Paris"}",
                "name": "get_weather",
              },
              "id": "call_1",
              "type": "function",
            },
            {
              "function": {
                "arguments": "{"location":"Rome"}",
                "name": "get_weather",
              },
              "id": "call_2",
              "type": "function",
            },
          ],
        },
        {
          "content": "18°C",
          "role": "tool",
          "tool_call_id": "call_1",
        },
        {
          "content": "service down",
          "role": "tool",
          "tool_call_id": "call_2",
        },
      ]
    `);
  });

  it('stops at once on a real 400 with the server message', async () => {
    server().reply(jsonResponse(400, readJsonFixture('vercel-ai/reasoning-model-legacy-parameter-error.json')));
    const { error } = await collectUntilError(provider().provider.stream(modelRequest()));
    expect(error).toMatchObject({ code: 'invalid_request', statusCode: 400, retryable: false });
    expect((error as Error).message).toBe(
      `Error from the server at ${server().url}/v1 (400 invalid_request_error): Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.`,
    );
    expect(server().requests).toHaveLength(1);
  });

  it('reads a non-streamed response with cached input tokens when streaming is off', async () => {
    const recording = readJsonFixture<{ attempts: Array<{ rawResponseBody: unknown }> }>(
      'vercel-ai/openai-chat-cached-input-tokens-11178.json',
    );
    server().reply(jsonResponse(200, recording.attempts[1]?.rawResponseBody));
    const chunks = await collectChunks(
      provider({ model: 'gpt-4o-mini', streaming: false }).provider.stream(modelRequest()),
    );
    expect(textOf(chunks)).toBe('ok');
    expect(chunksOfType(chunks, 'usage')[0]?.usage).toEqual({
      inputTokens: 10_122,
      outputTokens: 1,
      cacheReadTokens: 9_984,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
    expect(server().requests[0]?.body).not.toHaveProperty('stream_options');
  });

  it('sends only the first four stop sequences, the most the API takes', async () => {
    server().reply(recorded(TEXT_SSE));
    const stopSequences = ['</tool>', '</tool_call>', 'END', 'STOP', 'HALT', 'DONE'];
    await collectChunks(provider().provider.stream(modelRequest({ stopSequences })));
    expect(server().requests[0]?.body).toMatchObject({ stop: ['</tool>', '</tool_call>', 'END', 'STOP'] });
  });

  it('ends the step at the usage chunk and cuts a connection the server keeps open after the idle timeout', async () => {
    const answer = openEndedSseResponse(chatAnswer({ text: 'Hi there!' }));
    server().reply(answer.responder);
    const chunks = await collectChunks(provider({ idleTimeoutMs: 100 }).provider.stream(modelRequest()));
    expect(textOf(chunks)).toBe('Hi there!');
    expect(chunks.slice(-2)).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
    ]);
    await answer.released;
  });
});

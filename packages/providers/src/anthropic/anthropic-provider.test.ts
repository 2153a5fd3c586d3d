import type { Message } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import {
  chunkFrames,
  chunkLines,
  chunkLinesToFrames,
  chunksOfType,
  collectChunks,
  jsonResponse,
  modelRequest,
  rawSseFrames,
  readFixture,
  readJsonFixture,
  sseResponse,
  testProviderOptions,
  textOf,
  thinkingOf,
  toolCallsOf,
  useFixtureServer,
  WEATHER_TOOL,
} from '../test-support/index.js';
import { AnthropicProvider, type AnthropicProviderOptions } from './anthropic-provider.js';

// Recorded Anthropic traffic (see src/__fixtures__/README.md) served from a local server.
const server = useFixtureServer();

function provider(options: Partial<AnthropicProviderOptions> = {}) {
  const shared = testProviderOptions(server().url);
  const instance = new AnthropicProvider({ model: 'claude-sonnet-4-6', ...shared.options, ...options });
  return { provider: instance, waits: shared.waits };
}

const sdkStream = (path: string) => sseResponse(rawSseFrames(readFixture(path)));

describe('AnthropicProvider against recorded responses', () => {
  it('streams plain text with usage and the stop reason', async () => {
    server().reply(sseResponse(chunkFrames('vercel-ai/anthropic-text.chunks.txt', 'anthropic')));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(textOf(chunks)).toBe(
      "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    );
    expect(chunksOfType(chunks, 'usage')).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: 12, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop', rawReason: 'end_turn' });
    const request = server().requests[0];
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers.authorization).toBe('Bearer test-key');
    expect(request?.body).toMatchInlineSnapshot(`
      {
        "max_tokens": 16384,
        "messages": [
          {
            "content": [
              {
                "cache_control": {
                  "type": "ephemeral",
                },
                "text": "Hello!",
                "type": "text",
              },
            ],
            "role": "user",
          },
        ],
        "model": "claude-sonnet-4-6",
        "stream": true,
        "system": [
          {
            "cache_control": {
              "type": "ephemeral",
            },
            "text": "You are a helpful assistant.",
            "type": "text",
          },
        ],
      }
    `);
  });

  it('assembles a tool input streamed in pieces and sends tools with tool_choice any', async () => {
    server().reply(sdkStream('anthropic-sdk-python/tool_use_response.txt'));
    const request = modelRequest({
      messages: [{ role: 'user', content: [{ type: 'text', text: "What's the weather in Paris?" }] }],
      tools: [WEATHER_TOOL],
      toolChoice: 'required',
    });
    const chunks = await collectChunks(provider().provider.stream(request));
    expect(textOf(chunks)).toBe("I'll check the current weather in Paris for you.");
    expect(chunksOfType(chunks, 'tool-call-start')).toEqual([
      { type: 'tool-call-start', toolCallId: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', toolName: 'get_weather' },
    ]);
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', arguments: { location: 'Paris' } },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'tool_use' });
    const body = server().requests[0]?.body as { tool_choice: unknown; tools: unknown };
    expect(body.tool_choice).toEqual({ type: 'any' });
    expect(body.tools).toMatchInlineSnapshot(`
      [
        {
          "cache_control": {
            "type": "ephemeral",
          },
          "description": "Get the current weather in a given location",
          "input_schema": {
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
          "name": "get_weather",
        },
      ]
    `);
  });

  it('yields parallel tool calls in order', async () => {
    server().reply(sseResponse(chunkFrames('vercel-ai/anthropic-issue-15652-false.chunks.txt', 'anthropic')));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'toolu_01LtEf4h1QW7KCKLsYMuhTNB', name: 'searchDocs', arguments: { query: 'alpha' } },
      { id: 'toolu_016tfZE7otAFSBjhc67wu189', name: 'searchDocs', arguments: { query: 'beta' } },
      { id: 'toolu_01XkU35z8BVWqqc9tijDuLrA', name: 'searchDocs', arguments: { query: 'gamma' } },
    ]);
    expect(chunksOfType(chunks, 'usage')[0]?.usage).toMatchObject({ inputTokens: 798, outputTokens: 110 });
  });

  it('reads a programmatic tool call that arrives whole inside message_start', async () => {
    // The recording holds one stream per call; the second is a call made by code running on Anthropic's
    // side: message_start (its tool_use block and stop_reason inside) and message_stop, nothing between.
    const calls = splitAt(chunkLines('vercel-ai/anthropic-programmatic-tool-calling.1.chunks.txt'), 'message_start');
    server().reply(sseResponse(chunkLinesToFrames(calls[1]!, 'anthropic')));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'toolu_015dGLMbwBKv1ZRQr6KdJzeH', name: 'rollDie', arguments: { player: 'player2' } },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'tool_use' });
  });

  it('reads the direct call of a programmatic tool calling run, skipping the server tool', async () => {
    const calls = splitAt(chunkLines('vercel-ai/anthropic-programmatic-tool-calling.1.chunks.txt'), 'message_start');
    server().reply(sseResponse(chunkLinesToFrames(calls[0]!, 'anthropic')));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'toolu_019jKkXz4jAdwHweHBw92CVY', name: 'rollDie', arguments: { player: 'player1' } },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'tool_use' });
  });

  it('sends thinking with its signature back before the tool use, and streams new thinking with its signature', async () => {
    server().reply(sseResponse(chunkFrames('vercel-ai/anthropic-clear-thinking.1.chunks.txt', 'anthropic')));
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'What is 37 * 25, divided by 5?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'I need to multiply first.', signature: 'EqQBCkgIBxABGAIiQL-signature' },
          { type: 'tool-call', toolCallId: 'toolu_01A', toolName: 'calculator', arguments: { expression: '37 * 25' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'toolu_01A', toolName: 'calculator', content: '925', isError: false },
        ],
      },
    ];
    const request = modelRequest({
      messages: history,
      tools: [
        {
          name: 'calculator',
          description: 'Evaluates arithmetic',
          inputSchema: { type: 'object', properties: { expression: { type: 'string' } } },
        },
      ],
      toolChoice: 'required',
      settings: { thinkingBudgetTokens: 2_048 },
    });
    const chunks = await collectChunks(provider().provider.stream(request));
    expect(thinkingOf(chunks)).toBe('The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185');
    const [end] = chunksOfType(chunks, 'thinking-end');
    expect(end?.signature).toMatch(/^EvQBCkYICxgCKkAxhD4N/);
    expect(chunks.findIndex((chunk) => chunk.type === 'thinking-end')).toBeLessThan(
      chunks.findIndex((chunk) => chunk.type === 'text-delta'),
    );
    expect(textOf(chunks)).toBe('925 ÷ 5 = 185');
    // Thinking forbids tool_choice `any`: the provider falls back to `auto`.
    const body = server().requests[0]?.body as { thinking: unknown; tool_choice: unknown; messages: unknown };
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2_048, display: 'summarized' });
    expect(body.tool_choice).toEqual({ type: 'auto' });
    expect(body.messages).toMatchInlineSnapshot(`
      [
        {
          "content": [
            {
              "text": "What is 37 * 25, divided by 5?",
              "type": "text",
            },
          ],
          "role": "user",
        },
        {
          "content": [
            {
              "signature": "EqQBCkgIBxABGAIiQL-signature",
              "thinking": "I need to multiply first.",
              "type": "thinking",
            },
            {
              "id": "toolu_01A",
              "input": {
                "expression": "37 * 25",
              },
              "name": "calculator",
              "type": "tool_use",
            },
          ],
          "role": "assistant",
        },
        {
          "content": [
            {
              "cache_control": {
                "type": "ephemeral",
              },
              "content": "925",
              "tool_use_id": "toolu_01A",
              "type": "tool_result",
            },
          ],
          "role": "user",
        },
      ]
    `);
  });

  it('asks a model with adaptive thinking only for adaptive thinking at the requested effort', async () => {
    server().reply(sseResponse(chunkFrames('vercel-ai/anthropic-text.chunks.txt', 'anthropic')));
    const request = modelRequest({
      tools: [WEATHER_TOOL],
      toolChoice: 'required',
      settings: { reasoningEffort: 'medium', thinkingBudgetTokens: 4_096, temperature: 0.3 },
    });
    await collectChunks(provider({ model: 'claude-opus-4-7' }).provider.stream(request));
    const body = server().requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'claude-opus-4-7',
      thinking: { type: 'adaptive' },
      output_config: { effort: 'medium' },
      max_tokens: 16_384 + 4_096,
      tool_choice: { type: 'auto' },
    });
    // The model rejects the budget form and sampling settings.
    expect(body.thinking).not.toHaveProperty('budget_tokens');
    expect(body).not.toHaveProperty('temperature');
  });

  it('streams thinking followed by a tool use', async () => {
    // Spliced from two real recordings: the thinking block of anthropic-clear-thinking and the tool_use
    // block of tool_use_response, renumbered as blocks 0 and 1.
    const thinking = chunkLines('vercel-ai/anthropic-clear-thinking.1.chunks.txt').slice(0, 15);
    const toolUse = rawSseFrames(readFixture('anthropic-sdk-python/tool_use_response.txt')).slice(6, 13);
    const end = [
      '{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":120}}',
      '{"type":"message_stop"}',
    ];
    server().reply(
      sseResponse([...chunkLinesToFrames(thinking, 'anthropic'), ...toolUse, ...chunkLinesToFrames(end, 'anthropic')]),
    );
    const chunks = await collectChunks(
      provider().provider.stream(modelRequest({ tools: [WEATHER_TOOL], settings: { thinkingBudgetTokens: 1_024 } })),
    );
    expect(chunks.map((chunk) => chunk.type).filter((type, index, all) => type !== all[index - 1])).toEqual([
      'thinking-delta',
      'thinking-end',
      'tool-call-start',
      'tool-call',
      'usage',
      'finish',
    ]);
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', arguments: { location: 'Paris' } },
    ]);
    expect(chunks.at(-1)).toMatchObject({ reason: 'tool-calls' });
  });

  it('emits a tool input cut off by max_tokens as it arrived, with finish reason length', async () => {
    server().reply(sdkStream('anthropic-sdk-python/incomplete_partial_json_response.txt'));
    const chunks = await collectChunks(provider().provider.stream(modelRequest({ tools: [WEATHER_TOOL] })));
    const [call] = chunksOfType(chunks, 'tool-call');
    expect(call?.toolName).toBe('make_file');
    expect(call?.input).toBe(
      '{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s",\n"",\n"## INTRODUCTION",\n"",\n"Filing taxes',
    );
    expect(() => JSON.parse(call?.input ?? '')).toThrow();
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'length', rawReason: 'max_tokens' });
  });

  it('reports a refusal as the finish reason', async () => {
    server().reply(sseResponse(chunkFrames('vercel-ai/anthropic-refusal.chunks.txt', 'anthropic')));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'refusal', rawReason: 'refusal' });
    expect(textOf(chunks)).toBe('');
  });

  it('counts prompt-cache writes and reads', async () => {
    server().reply(sseResponse(chunkFrames('vercel-ai/anthropic-issue-5942-cache-write.chunks.txt', 'anthropic')));
    server().reply(sseResponse(chunkFrames('vercel-ai/anthropic-issue-5942-cache-read.chunks.txt', 'anthropic')));
    const { provider: anthropic } = provider();
    const write = chunksOfType(await collectChunks(anthropic.stream(modelRequest())), 'usage');
    const read = chunksOfType(await collectChunks(anthropic.stream(modelRequest())), 'usage');
    expect(write[0]?.usage).toEqual({
      inputTokens: 18_642,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 18_639,
      reasoningTokens: 0,
    });
    expect(read[0]?.usage).toEqual({
      inputTokens: 18_642,
      outputTokens: 1,
      cacheReadTokens: 18_639,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('reads a whole non-streamed message when streaming is off', async () => {
    server().reply(jsonResponse(200, readJsonFixture('vercel-ai/anthropic-text.json')));
    const chunks = await collectChunks(provider({ streaming: false }).provider.stream(modelRequest()));
    expect(textOf(chunks)).toMatch(/^Hello/);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop', rawReason: 'end_turn' });
    expect(server().requests[0]?.body).not.toHaveProperty('stream', true);
  });
});

/** Splits a recording of several calls (one stream after another) at each event of type `first`. */
function splitAt(lines: readonly string[], first: string): string[][] {
  const calls: string[][] = [];
  for (const line of lines) {
    if ((JSON.parse(line) as { type: string }).type === first || calls.length === 0) calls.push([]);
    calls.at(-1)?.push(line);
  }
  return calls;
}

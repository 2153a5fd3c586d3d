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
  readJsonFixture,
  responsesAnswer,
  splitResponses,
  sseResponse,
  testProviderOptions,
  textOf,
  thinkingOf,
  toolCallsOf,
  useFixtureServer,
} from '../test-support/index.js';
import type { OpenAIProviderOptions } from './openai-provider-options.js';
import { OpenAIResponsesProvider } from './openai-responses-provider.js';
import { openEndedSseResponse } from './test-support/open-ended-sse-response.js';

// Recorded Responses API traffic (see src/__fixtures__/README.md) served from a local server.
const server = useFixtureServer();

function provider(options: Partial<OpenAIProviderOptions> = {}) {
  const shared = testProviderOptions(`${server().url}/v1`);
  const instance = new OpenAIResponsesProvider({
    model: 'gpt-5.1-codex-max',
    compatible: false,
    ...shared.options,
    ...options,
  });
  return { provider: instance, waits: shared.waits };
}

// Four calls of one agent run: reasoning + a calculator call, two more calls, then the answer.
const calculatorRun = () => splitResponses(chunkLines('vercel-ai/openai-reasoning-encrypted-content.1.chunks.txt'));
const CALCULATOR = {
  name: 'calculator',
  description: 'Basic arithmetic',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' }, op: { type: 'string' } },
    required: ['a', 'b', 'op'],
  },
};
const textLines = () => chunkLines('vercel-ai/azure-text.1.chunks.txt');

describe('OpenAIResponsesProvider against recorded responses', () => {
  it('streams a reasoning summary, its encrypted reasoning and a function call', async () => {
    const [first] = calculatorRun();
    server().reply(sseResponse(chunkLinesToFrames(first!, 'responses')));
    const request = modelRequest({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Compute (12 + 7) * 3 * 10 with the calculator.' }] }],
      tools: [CALCULATOR],
      toolChoice: 'required',
    });
    const chunks = await collectChunks(provider().provider.stream(request));
    expect(thinkingOf(chunks)).toBe(
      "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
    );
    const [end] = chunksOfType(chunks, 'thinking-end');
    expect(end?.signature).toMatch(/^gAAAAABpPDIVOKrsHNZ0/);
    expect(end?.providerMetadata).toEqual({
      openai: { itemId: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9' },
    });
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', name: 'calculator', arguments: { a: 12, b: 7, op: 'add' } },
    ]);
    expect(chunksOfType(chunks, 'usage')[0]?.usage).toEqual({
      inputTokens: 134,
      outputTokens: 28,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'completed' });
    expect(server().requests[0]?.path).toBe('/v1/responses');
    expect(server().requests[0]?.body).toMatchInlineSnapshot(`
      {
        "include": [
          "reasoning.encrypted_content",
        ],
        "input": [
          {
            "content": "Compute (12 + 7) * 3 * 10 with the calculator.",
            "role": "user",
          },
        ],
        "instructions": "You are a helpful assistant.",
        "model": "gpt-5.1-codex-max",
        "reasoning": {
          "summary": "auto",
        },
        "store": false,
        "stream": true,
        "tool_choice": "required",
        "tools": [
          {
            "description": "Basic arithmetic",
            "name": "calculator",
            "parameters": {
              "properties": {
                "a": {
                  "type": "number",
                },
                "b": {
                  "type": "number",
                },
                "op": {
                  "type": "string",
                },
              },
              "required": [
                "a",
                "b",
                "op",
              ],
              "type": "object",
            },
            "strict": false,
            "type": "function",
          },
        ],
      }
    `);
  });

  it('sends the encrypted reasoning, the call and its output back without server-side storage', async () => {
    const [first, second] = calculatorRun();
    server().reply(
      sseResponse(chunkLinesToFrames(first!, 'responses')),
      sseResponse(chunkLinesToFrames(second!, 'responses')),
    );
    const { provider: openai } = provider();
    const user: Message = {
      role: 'user',
      content: [{ type: 'text', text: 'Compute (12 + 7) * 3 * 10 with the calculator.' }],
    };
    const step1 = await collectChunks(openai.stream(modelRequest({ messages: [user], tools: [CALCULATOR] })));
    const [end] = chunksOfType(step1, 'thinking-end');
    const [call] = chunksOfType(step1, 'tool-call');
    const history: Message[] = [
      user,
      {
        role: 'assistant',
        content: [
          {
            type: 'thinking',
            text: thinkingOf(step1),
            signature: end?.signature,
            providerMetadata: end?.providerMetadata,
          },
          {
            type: 'tool-call',
            toolCallId: call!.toolCallId,
            toolName: call!.toolName,
            arguments: JSON.parse(call!.input),
            providerMetadata: call?.providerMetadata,
          },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: call!.toolCallId, toolName: 'calculator', content: '19', isError: false },
        ],
      },
    ];
    const step2 = await collectChunks(openai.stream(modelRequest({ messages: history, tools: [CALCULATOR] })));
    expect(toolCallsOf(step2)).toEqual([
      { id: 'call_Q6pW65MUgW9vF59BmItYGos3', name: 'calculator', arguments: { a: 19, b: 3, op: 'multiply' } },
    ]);
    const body = server().requests[1]?.body as {
      input: Array<Record<string, unknown>>;
      store: boolean;
      include: string[];
    };
    expect(body.store).toBe(false);
    expect(body.include).toEqual(['reasoning.encrypted_content']);
    expect(body.input.map((item) => item.type ?? item.role)).toEqual([
      'user',
      'reasoning',
      'function_call',
      'function_call_output',
    ]);
    expect(body.input[1]).toMatchObject({
      id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
      encrypted_content: end?.signature,
    });
    expect(body.input.slice(2)).toMatchInlineSnapshot(`
      [
        {
          "arguments": "{"a":12,"b":7,"op":"add"}",
          "call_id": "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
          "name": "calculator",
          "type": "function_call",
        },
        {
          "call_id": "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
          "output": "19",
          "type": "function_call_output",
        },
      ]
    `);
  });

  it('streams plain output text', async () => {
    server().reply(sseResponse(chunkLinesToFrames(textLines(), 'responses')));
    const chunks = await collectChunks(provider({ model: 'gpt-5.1' }).provider.stream(modelRequest()));
    expect(textOf(chunks)).toBe('Hello');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop', rawReason: 'completed' });
  });

  it('finishes an incomplete response with its reason', async () => {
    // The real text recording with its last event turned into response.incomplete.
    const lines = textLines();
    const last = JSON.parse(lines.at(-1)!) as { type: string; response: Record<string, unknown> };
    last.type = 'response.incomplete';
    last.response = { ...last.response, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
    server().reply(sseResponse(chunkLinesToFrames([...lines.slice(0, -1), JSON.stringify(last)], 'responses')));
    const chunks = await collectChunks(provider({ model: 'gpt-5.1' }).provider.stream(modelRequest()));
    expect(textOf(chunks)).toBe('Hello');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'length', rawReason: 'max_output_tokens' });
  });

  it('replays a whole non-streamed response when streaming is off', async () => {
    const [first] = calculatorRun();
    const completed = JSON.parse(first!.at(-1)!) as { response: unknown };
    server().reply(jsonResponse(200, completed.response));
    const chunks = await collectChunks(
      provider({ streaming: false }).provider.stream(modelRequest({ tools: [CALCULATOR] })),
    );
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      'thinking-delta',
      'thinking-end',
      'tool-call-start',
      'tool-call',
      'usage',
      'finish',
    ]);
    expect(toolCallsOf(chunks)[0]?.arguments).toEqual({ a: 12, b: 7, op: 'add' });
  });

  describe('custom tool calls (free-form input)', () => {
    const SQL_CALL = {
      type: 'tool-call',
      toolCallId: 'call_custom_sql_001',
      toolName: 'write_sql',
      input: '{"input":"SELECT * FROM users WHERE age > 25"}',
      providerMetadata: { openai: { itemId: 'ct_abc123def456', customToolCall: true } },
    };

    it('reads a streamed custom_tool_call as a call whose arguments are { input }', async () => {
      server().reply(sseResponse(chunkFrames('vercel-ai/openai-custom-tool.1.chunks.txt', 'responses')));
      const chunks = await collectChunks(provider().provider.stream(modelRequest()));
      expect(chunksOfType(chunks, 'tool-call-start')).toEqual([
        { type: 'tool-call-start', toolCallId: 'call_custom_sql_001', toolName: 'write_sql' },
      ]);
      expect(chunksOfType(chunks, 'tool-call')).toEqual([SQL_CALL]);
      expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'completed' });
    });

    it('reads a non-streamed custom_tool_call the same way', async () => {
      server().reply(jsonResponse(200, readJsonFixture('vercel-ai/openai-custom-tool.1.json')));
      const chunks = await collectChunks(provider({ streaming: false }).provider.stream(modelRequest()));
      expect(chunksOfType(chunks, 'tool-call')).toEqual([SQL_CALL]);
      expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'completed' });
    });
  });

  it('sends no stop sequences, which the API lacks, and says so in its capabilities', async () => {
    server().reply(sseResponse(chunkLinesToFrames(textLines(), 'responses')));
    // Even a model table entry that claims stop sequences: the API, not the model, has none.
    const { provider: openai } = provider({ model: 'gpt-4o', modelInfo: { stopSequences: true } });
    await collectChunks(openai.stream(modelRequest({ stopSequences: ['</tool>'] })));
    expect(openai.capabilities.stopSequences).toBe(false);
    expect(server().requests[0]?.body).not.toHaveProperty('stop');
  });

  it('ends the step at response.completed and cuts a connection the server keeps open after the idle timeout', async () => {
    const answer = openEndedSseResponse(responsesAnswer({ text: 'Hi there!' }));
    server().reply(answer.responder);
    const openai = provider({ model: 'gpt-5.1', idleTimeoutMs: 100 }).provider;
    const chunks = await collectChunks(openai.stream(modelRequest()));
    expect(textOf(chunks)).toBe('Hi there!');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop', rawReason: 'completed' });
    await answer.released;
  });
});

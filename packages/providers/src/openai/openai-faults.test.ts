import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chunksOfType,
  collectChunks,
  collectThroughSilence,
  collectUntilError,
  FixtureServer,
  jsonResponse,
  keptChunks,
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

// Faults injected into real recorded Chat Completions streams by the local server.
const server = useFixtureServer();

afterEach(() => {
  vi.useRealTimers();
});

function provider(options: Partial<OpenAIProviderOptions> = {}) {
  const shared = testProviderOptions(`${server().url}/v1`);
  const instance = new OpenAIProvider({ model: 'gpt-4o', compatible: false, ...shared.options, ...options });
  return { provider: instance, waits: shared.waits };
}

const textFrames = () =>
  rawSseFrames(readFixture('openai-python/e2aad469b71d1d4894ff833ea147020a9d875eb7ce644a0ff355581690a4cbfd.bin'));
const parallelFrames = () =>
  rawSseFrames(readFixture('openai-python/f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin'));
const TEXT = textOf(await collectCleanText());

async function collectCleanText() {
  const local = await FixtureServer.start();
  try {
    local.reply(sseResponse(textFrames()));
    const instance = new OpenAIProvider({
      model: 'gpt-4o',
      apiKey: 'k',
      baseURL: `${local.url}/v1`,
      compatible: false,
    });
    return await collectChunks(instance.stream(modelRequest()));
  } finally {
    await local.close();
  }
}

const openaiError = (message: string, type: string, code: string | null = null) => ({
  error: { message, type, param: null, code },
});

describe('OpenAIProvider under faults', () => {
  it('honours retry-after-ms on a 429', async () => {
    server().reply(
      jsonResponse(429, openaiError('Rate limit reached for gpt-4o', 'requests', 'rate_limit_exceeded'), {
        'retry-after-ms': '1500',
      }),
      sseResponse(textFrames()),
    );
    const { provider: openai, waits } = provider();
    const chunks = await collectChunks(openai.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')).toMatchObject([
      { delayMs: 1_500, error: { code: 'rate_limit', statusCode: 429 } },
    ]);
    expect(waits).toEqual([1_500]);
    expect(textOf(chunks)).toBe(TEXT);
  });

  it('does not retry a 429 for a spent quota', async () => {
    server().reply(
      jsonResponse(429, openaiError('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota')),
    );
    const { error } = await collectUntilError(provider().provider.stream(modelRequest()));
    expect(error).toMatchObject({ code: 'rate_limit', retryable: false, action: 'stop' });
    expect(server().requests).toHaveLength(1);
  });

  it('retries a 503', async () => {
    server().reply(
      jsonResponse(503, openaiError('The server is overloaded', 'server_error')),
      sseResponse(textFrames()),
    );
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]?.error).toMatchObject({ code: 'server_error', statusCode: 503 });
  });

  it('restarts the step after a socket reset between parallel tool calls, emitting each call once', async () => {
    server().reply(
      sseResponse(parallelFrames(), { fault: { after: 12, kind: 'reset' } }),
      sseResponse(parallelFrames()),
    );
    const chunks = await collectChunks(provider().provider.stream(modelRequest({ tools: [WEATHER_TOOL] })));
    const [retry] = chunksOfType(chunks, 'retry');
    expect(retry).toMatchObject({ discardOutput: true, error: { code: 'stream_broken' } });
    const kept = keptChunks(chunks);
    expect(toolCallsOf(kept).map((call) => call.name)).toEqual(['GetWeatherArgs', 'get_stock_price']);
    expect(chunksOfType(kept, 'tool-call-start')).toHaveLength(2);
  });

  it('treats a stream that ends without a finish_reason as broken', async () => {
    server().reply(sseResponse(textFrames(), { fault: { after: 8, kind: 'close' } }), sseResponse(textFrames()));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]).toMatchObject({ discardOutput: true, error: { code: 'stream_broken' } });
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('restarts the step after a malformed event', async () => {
    const frames = textFrames();
    server().reply(
      sseResponse([
        ...frames.slice(0, 3),
        'data: {"id":"chatcmpl-x","choices":[{"delta":{"content":"br\n\n',
        ...frames.slice(3),
      ]),
      sseResponse(frames),
    );
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]?.error.message).toMatch(
      /^The stream from the server at http:\/\/127\.0\.0\.1:\d+\/v1 sent a malformed event: /,
    );
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('retries a stalled stream after the idle timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    server().reply(sseResponse(textFrames(), { fault: { after: 4, kind: 'stall' } }), sseResponse(textFrames()));
    const chunks = await collectThroughSilence(
      provider({ idleTimeoutMs: 100 }).provider.stream(modelRequest()),
      (chunk) => chunk.type === 'text-delta',
      100,
    );
    expect(chunksOfType(chunks, 'retry')[0]).toMatchObject({ discardOutput: true, error: { code: 'timeout' } });
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('classifies context_length_exceeded for compaction', async () => {
    const body = openaiError(
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens.",
      'invalid_request_error',
      'context_length_exceeded',
    );
    server().reply(jsonResponse(400, body));
    const { error } = await collectUntilError(provider().provider.stream(modelRequest({ tools: [WEATHER_TOOL] })));
    expect(error).toMatchObject({ code: 'context_length', action: 'compact' });
  });

  it('fails at once, without retries, when nothing listens on a local port', async () => {
    const closed = await FixtureServer.start();
    const url = closed.url;
    await closed.close();
    const { error, chunks } = await collectUntilError(
      provider({ baseURL: `${url}/v1`, retry: { maxRetries: 3 } }).provider.stream(modelRequest()),
    );
    expect(chunksOfType(chunks, 'retry')).toHaveLength(0);
    expect(error).toMatchObject({ code: 'network', retryable: false });
    expect((error as Error).message).toMatch(/nothing is listening at 127\.0\.0\.1:\d+; is the local server running\?/);
  });
});

describe('OpenAIProvider with a malformed non-streamed body', () => {
  const completion = readJsonFixture<Record<string, unknown>>(
    'vercel-ai/qwen-plus-normalized-replayed-tool-arguments-success.json',
  );

  it.each([
    ['"choices" is null', { ...completion, choices: null }, 'its "choices" is null, not a list'],
    ['a choice is a string', { ...completion, choices: ['ok'] }, 'its choice 0 is a string, not an object'],
    [
      'a message is a string',
      { ...completion, choices: [{ index: 0, message: 'ok', finish_reason: 'stop' }] },
      'the "message" of choice 0 is a string, not an object',
    ],
    [
      'tool_calls is an object',
      { ...completion, choices: [{ index: 0, message: { role: 'assistant', tool_calls: {} }, finish_reason: 'stop' }] },
      'the "tool_calls" of choice 0 is an object, not a list of objects',
    ],
    ['"usage" is a string', { ...completion, usage: 'none' }, 'its "usage" is a string, not an object'],
    ['the body is null', null, 'the body is null, not a chat completion object'],
  ])('stops with invalid_response, saying what is wrong, when %s', async (_case, body, what) => {
    server().reply(jsonResponse(200, body));
    const { error } = await collectUntilError(provider({ streaming: false }).provider.stream(modelRequest()));
    expect(error).toMatchObject({ code: 'invalid_response', retryable: false, action: 'stop' });
    expect((error as Error).message).toBe(
      `The server at ${server().url}/v1 sent a malformed response: ${what}. Check that the base URL points at ` +
        'the API the provider speaks.',
    );
    expect(server().requests).toHaveLength(1);
  });
});

import { CancelledError } from '@agentloop/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chunkFrames,
  chunksOfType,
  collectChunks,
  collectThroughSilence,
  collectUntilError,
  jsonResponse,
  keptChunks,
  modelRequest,
  pacedFetch,
  rawSseFrames,
  readExchanges,
  readFixture,
  readJsonFixture,
  recordedResponse,
  sseResponse,
  testProviderOptions,
  textOf,
  useFixtureServer,
  WEATHER_TOOL,
} from '../test-support/index.js';
import { AnthropicProvider, type AnthropicProviderOptions } from './anthropic-provider.js';

// Faults injected into real recorded streams by the local server.
const server = useFixtureServer();

afterEach(() => {
  vi.useRealTimers();
});

function provider(options: Partial<AnthropicProviderOptions> = {}) {
  const shared = testProviderOptions(server().url);
  const instance = new AnthropicProvider({ model: 'claude-sonnet-4-6', ...shared.options, ...options });
  return { provider: instance, waits: shared.waits };
}

const TEXT =
  "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";
const textFrames = () => chunkFrames('vercel-ai/anthropic-text.chunks.txt', 'anthropic');
const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message } });
const TEXT_BODY = readJsonFixture<Record<string, unknown>>('vercel-ai/anthropic-text.json');
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('AnthropicProvider under faults', () => {
  it('waits as long as retry-after says after a 429, then recovers', async () => {
    server().reply(
      jsonResponse(429, anthropicError('rate_limit_error', 'Number of requests has exceeded your rate limit'), {
        'retry-after': '2',
      }),
      sseResponse(textFrames()),
    );
    const { provider: anthropic, waits } = provider();
    const chunks = await collectChunks(anthropic.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')).toMatchObject([
      { attempt: 1, delayMs: 2_000, discardOutput: false, error: { code: 'rate_limit', retryAfterMs: 2_000 } },
    ]);
    expect(waits).toEqual([2_000]);
    expect(textOf(chunks)).toBe(TEXT);
  });

  it('retries a 529 overloaded_error', async () => {
    server().reply(jsonResponse(529, anthropicError('overloaded_error', 'Overloaded')), sseResponse(textFrames()));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]?.error).toMatchObject({
      code: 'overloaded',
      statusCode: 529,
      action: 'retry',
    });
    expect(textOf(chunks)).toBe(TEXT);
  });

  it('retries a 500 api_error', async () => {
    server().reply(jsonResponse(500, anthropicError('api_error', 'Internal server error')), sseResponse(textFrames()));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]?.error).toMatchObject({ code: 'server_error', statusCode: 500 });
    expect(textOf(chunks)).toBe(TEXT);
  });

  it('restarts the step when an overloaded_error event arrives mid-stream, discarding the partial text', async () => {
    const partial = textFrames().slice(0, 5);
    const errorEvent = `event: error\ndata: ${JSON.stringify(anthropicError('overloaded_error', 'Overloaded'))}\n\n`;
    server().reply(sseResponse([...partial, errorEvent]), sseResponse(textFrames()));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    const [retry] = chunksOfType(chunks, 'retry');
    expect(retry).toMatchObject({ discardOutput: true, error: { code: 'overloaded' } });
    expect(textOf(chunks.slice(0, chunks.indexOf(retry!)))).toBe('Hello! I');
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('restarts the step after a socket reset mid-stream, so nothing is emitted twice', async () => {
    server().reply(sseResponse(textFrames(), { fault: { after: 5, kind: 'reset' } }), sseResponse(textFrames()));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    const [retry] = chunksOfType(chunks, 'retry');
    expect(retry).toMatchObject({ discardOutput: true, error: { code: 'stream_broken', retryable: true } });
    expect(retry?.error.message).toMatch(
      /^The stream from the server at http:\/\/127\.0\.0\.1:\d+ broke before the response was complete: /,
    );
    const kept = keptChunks(chunks);
    expect(textOf(kept)).toBe(TEXT);
    expect(chunksOfType(kept, 'finish')).toHaveLength(1);
    expect(chunksOfType(kept, 'usage')).toHaveLength(1);
  });

  it('treats a stream that ends before message_stop as broken', async () => {
    server().reply(sseResponse(textFrames(), { fault: { after: 6, kind: 'close' } }), sseResponse(textFrames()));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]).toMatchObject({ discardOutput: true, error: { code: 'stream_broken' } });
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('restarts the step after a malformed event', async () => {
    const frames = textFrames();
    const malformed =
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_de\n\n';
    server().reply(sseResponse([...frames.slice(0, 4), malformed, ...frames.slice(4)]), sseResponse(frames));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]?.error).toMatchObject({ code: 'stream_broken' });
    expect(chunksOfType(chunks, 'retry')[0]?.error.message).toMatch(/malformed event/);
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('stops with invalid_response, naming the event, when an event parses but lacks what its type promises', async () => {
    const frames = textFrames();
    const shapeless = 'event: content_block_start\ndata: {"type":"content_block_start","index":0}\n\n';
    server().reply(sseResponse([frames[0]!, shapeless, ...frames.slice(1)]));
    const { error } = await collectUntilError(provider().provider.stream(modelRequest()));
    expect(error).toMatchObject({ code: 'invalid_response', retryable: false });
    expect((error as Error).message).toMatch(
      /^The server at http:\/\/127\.0\.0\.1:\d+ sent a malformed response: its "content_block_start" event does not have the API's shape \(Cannot read properties of undefined/,
    );
    expect(server().requests).toHaveLength(1);
  });

  it('gives up on a stalled stream after the idle timeout and retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    server().reply(sseResponse(textFrames(), { fault: { after: 5, kind: 'stall' } }), sseResponse(textFrames()));
    const chunks = await collectThroughSilence(
      provider({ idleTimeoutMs: 100 }).provider.stream(modelRequest()),
      (chunk) => chunk.type === 'text-delta',
      100,
    );
    expect(chunksOfType(chunks, 'retry')[0]).toMatchObject({
      discardOutput: true,
      error: { code: 'timeout', message: 'anthropic: the stream sent nothing for 100 ms' },
    });
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('fails with the last error once the retries are spent', async () => {
    server().reply(...[1, 2, 3].map(() => jsonResponse(500, anthropicError('api_error', 'Internal server error'))));
    const { chunks, error } = await collectUntilError(
      provider({ retry: { maxRetries: 2 } }).provider.stream(modelRequest()),
    );
    expect(chunksOfType(chunks, 'retry')).toHaveLength(2);
    expect(error).toMatchObject({ code: 'server_error', statusCode: 500 });
    expect((error as Error).message).toMatch(
      /^Error from the server at http:\/\/127\.0\.0\.1:\d+ \(500 api_error\): Internal server error$/,
    );
    expect(server().requests).toHaveLength(3);
  });

  it('ends with a CancelledError, not a retry, when the request is aborted mid-stream', async () => {
    server().reply(sseResponse(textFrames(), { fault: { after: 5, kind: 'stall' } }));
    const controller = new AbortController();
    const chunks: string[] = [];
    const run = async () => {
      for await (const batch of provider().provider.stream(modelRequest({ signal: controller.signal }))) {
        for (const chunk of batch) {
          chunks.push(chunk.type);
          if (chunk.type === 'text-delta') controller.abort();
        }
      }
    };
    const error = await run().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CancelledError);
    expect(chunks).not.toContain('retry');
    expect(server().requests).toHaveLength(1);
  });

  it('classifies a prompt that does not fit as context_length, to be compacted', async () => {
    server().reply(
      jsonResponse(400, anthropicError('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum')),
    );
    const { error } = await collectUntilError(provider().provider.stream(modelRequest()));
    expect(error).toMatchObject({ code: 'context_length', action: 'compact', retryable: false, statusCode: 400 });
  });

  it('stops at once on a 401', async () => {
    server().reply(jsonResponse(401, anthropicError('authentication_error', 'invalid x-api-key')));
    const { error } = await collectUntilError(provider().provider.stream(modelRequest({ tools: [WEATHER_TOOL] })));
    expect(error).toMatchObject({ code: 'authentication', action: 'stop', statusCode: 401 });
    expect(server().requests).toHaveLength(1);
  });
});

describe('AnthropicProvider against recorded failures', () => {
  it('retries a real 429 rate_limit_error twice, then streams the answer', async () => {
    const exchanges = readExchanges('anthropic-sdk-python/a8b7dbb8-2321-4624-abdb-7ba2136b5c38.json');
    server().reply(...exchanges.map(recordedResponse));
    const { provider: anthropic, waits } = provider();
    const chunks = await collectChunks(anthropic.stream(modelRequest()));
    const retries = chunksOfType(chunks, 'retry');
    expect(retries.map(({ attempt, delayMs, discardOutput }) => ({ attempt, delayMs, discardOutput }))).toEqual([
      { attempt: 1, delayMs: 250, discardOutput: false },
      { attempt: 2, delayMs: 500, discardOutput: false },
    ]);
    expect(retries[0]?.error).toMatchObject({ code: 'rate_limit', statusCode: 429, retryable: true });
    expect(retries[0]?.error.message).toMatch(
      /^Error from the server at http:\/\/127\.0\.0\.1:\d+ \(429 rate_limit_error\): This request would exceed your organization's rate limit/,
    );
    expect(waits).toEqual([250, 500]);
    expect(server().requests).toHaveLength(3);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
    expect(textOf(chunks).length).toBeGreaterThan(0);
  });

  it('retries a real 429 of a non-streamed call', async () => {
    const exchanges = readExchanges('anthropic-sdk-python/d743d628-16aa-4c9f-ae78-51deb578f746.json');
    server().reply(...exchanges.map(recordedResponse));
    const chunks = await collectChunks(provider({ streaming: false }).provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')).toHaveLength(2);
    expect(server().requests[2]?.body).not.toHaveProperty('stream', true);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
  });

  it('stops at once on a real 400 with the server message', async () => {
    const [, badRequest] = readExchanges('anthropic-sdk-python/f59a9391-643b-422c-96dc-1f28bc7ea4d7.json');
    server().reply(recordedResponse(badRequest!));
    const { chunks, error } = await collectUntilError(provider().provider.stream(modelRequest()));
    expect(chunks).toEqual([]);
    expect(error).toMatchObject({ code: 'invalid_request', statusCode: 400, retryable: false, action: 'stop' });
    expect((error as Error).message).toContain('unexpected `tool_use_id` found in `tool_result` blocks');
    expect(server().requests).toHaveLength(1);
  });
});

describe('AnthropicProvider idle timeout and SDK errors', () => {
  it('counts streamed tool-input pieces as activity, so a long tool input is not a dead stream', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const frames = rawSseFrames(readFixture('anthropic-sdk-python/tool_use_response.txt'));
    // 40 ms before each frame: the five tool-input pieces and the block's end are 240 ms without a chunk.
    const fetch = pacedFetch(frames, 40);
    const chunks = await collectChunks(
      provider({
        idleTimeoutMs: 150,
        retry: { maxRetries: 0 },
        clientOptions: { fetch, logLevel: 'off' },
      }).provider.stream(modelRequest({ tools: [WEATHER_TOOL] })),
    );
    expect(chunksOfType(chunks, 'retry')).toHaveLength(0);
    expect(chunksOfType(chunks, 'tool-call')).toHaveLength(1);
  });

  it('does not apply the idle timeout to a response that is not streamed', async () => {
    const [, , success] = readExchanges('anthropic-sdk-python/d743d628-16aa-4c9f-ae78-51deb578f746.json');
    const answer = recordedResponse(success!);
    let arrived = (): void => {};
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    server().reply(async (response, request) => {
      arrived();
      await released;
      await answer(response, request);
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const collecting = collectChunks(provider({ streaming: false, idleTimeoutMs: 50 }).provider.stream(modelRequest()));
    // The server thinks for 200 ms of the client's clock, four idle timeouts, before it answers.
    await requestArrived;
    await vi.advanceTimersByTimeAsync(200);
    release();
    const chunks = await collecting;
    expect(chunksOfType(chunks, 'retry')).toHaveLength(0);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
  });

  it.each([
    ['content is null', { ...TEXT_BODY, content: null }, 'its "content" is null, not a list of content blocks'],
    [
      'a block has no type',
      { ...TEXT_BODY, content: [{ text: 'Hi' }] },
      'its content block 0 is an object without a "type"',
    ],
    [
      'a tool_use block has no name',
      { ...TEXT_BODY, content: [{ type: 'tool_use', id: 'toolu_1', input: {} }] },
      'its tool_use block 0 has no "id" or "name"',
    ],
    ['usage is a string', { ...TEXT_BODY, usage: 'lots' }, 'its "usage" is a string, not an object'],
    ['the body is a list', [TEXT_BODY], 'the body is a list, not a message object'],
  ])('stops with invalid_response, saying what is wrong, when a non-streamed body %s', async (_case, body, what) => {
    server().reply(jsonResponse(200, body));
    const { error } = await collectUntilError(provider({ streaming: false }).provider.stream(modelRequest()));
    expect(error).toMatchObject({ code: 'invalid_response', retryable: false, action: 'stop' });
    expect((error as Error).message).toMatch(
      new RegExp(`^The server at http://127\\.0\\.0\\.1:\\d+ sent a malformed response: ${escaped(what)}\\. `),
    );
    expect(server().requests).toHaveLength(1);
  });

  it('does not retry an error the SDK raises itself, such as missing credentials', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const { error, chunks } = await collectUntilError(
        provider({ apiKey: undefined }).provider.stream(modelRequest()),
      );
      expect(chunksOfType(chunks, 'retry')).toHaveLength(0);
      expect(error).toMatchObject({ code: 'unknown', retryable: false });
      expect(server().requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});

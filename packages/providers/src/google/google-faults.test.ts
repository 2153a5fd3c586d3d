import { CancelledError } from '@agentloop/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chunkLines,
  chunksOfType,
  collectChunks,
  collectThroughSilence,
  collectUntilError,
  FixtureServer,
  jsonResponse,
  keptChunks,
  modelRequest,
  readJsonFixture,
  sseResponse,
  testProviderOptions,
  textOf,
  useFixtureServer,
  WEATHER_TOOL,
} from '../test-support/index.js';
import { GoogleProvider, type GoogleProviderOptions } from './google-provider.js';

// Faults injected into real recorded Gemini streams by the local server.
const server = useFixtureServer();

afterEach(() => {
  vi.useRealTimers();
});

function provider(options: Partial<GoogleProviderOptions> = {}) {
  // The Anthropic and OpenAI SDKs' `logLevel` is not an option of Google's: the rest is shared.
  const {
    options: { clientOptions: _sdkOptions, ...shared },
    waits,
  } = testProviderOptions(server().url);
  return { provider: new GoogleProvider({ model: 'gemini-3-pro-preview', ...shared, ...options }), waits };
}

const TEXT = 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y';
const textFrames = () => chunkLines('vercel-ai/google-text.chunks.txt').map((line) => `data: ${line}\n\n`);
const googleError = (code: number, status: string, message: string) => ({ error: { code, message, status } });

describe('GoogleProvider under faults', () => {
  it('waits as long as the RetryInfo of a 429 says, then recovers', async () => {
    server().reply(
      jsonResponse(429, readJsonFixture('vercel-ai/google-429-retry-info.json')),
      sseResponse(textFrames()),
    );
    const { provider: google, waits } = provider();
    const chunks = await collectChunks(google.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')).toMatchObject([
      { attempt: 1, delayMs: 34_400, discardOutput: false, error: { code: 'rate_limit', retryAfterMs: 34_400 } },
    ]);
    expect(chunksOfType(chunks, 'retry')[0]?.error.message).toMatch(
      /^Error from the server at http:\/\/127\.0\.0\.1:\d+ \(429 RESOURCE_EXHAUSTED\): You exceeded your current quota/,
    );
    expect(waits).toEqual([34_400]);
    expect(textOf(chunks)).toBe(TEXT);
  });

  it('retries a 503 and a 500', async () => {
    server().reply(
      jsonResponse(503, googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.')),
      jsonResponse(500, googleError(500, 'INTERNAL', 'An internal error has occurred.')),
      sseResponse(textFrames()),
    );
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry').map((retry) => [retry.error.code, retry.error.statusCode])).toEqual([
      ['server_error', 503],
      ['server_error', 500],
    ]);
    expect(textOf(chunks)).toBe(TEXT);
  });

  it('restarts the step when an error arrives mid-stream, discarding the partial text', async () => {
    const errorFrame = `data: ${JSON.stringify(googleError(503, 'UNAVAILABLE', 'The model is overloaded.'))}\n\n`;
    server().reply(sseResponse([...textFrames().slice(0, 1), errorFrame]), sseResponse(textFrames()));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    const [retry] = chunksOfType(chunks, 'retry');
    expect(retry).toMatchObject({ discardOutput: true, error: { code: 'server_error', statusCode: 503 } });
    expect(textOf(chunks.slice(0, chunks.indexOf(retry as never)))).toBe('There are **3**');
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('restarts the step after a socket reset mid-stream, so nothing is emitted twice', async () => {
    server().reply(sseResponse(textFrames(), { fault: { after: 1, kind: 'reset' } }), sseResponse(textFrames()));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]).toMatchObject({ discardOutput: true, error: { code: 'stream_broken' } });
    const kept = keptChunks(chunks);
    expect(textOf(kept)).toBe(TEXT);
    expect(chunksOfType(kept, 'finish')).toHaveLength(1);
  });

  it('treats a stream that ends before a finish reason as broken', async () => {
    server().reply(sseResponse(textFrames(), { fault: { after: 2, kind: 'close' } }), sseResponse(textFrames()));
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]).toMatchObject({ discardOutput: true, error: { code: 'stream_broken' } });
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('gives up on a stalled stream after the idle timeout and retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    server().reply(sseResponse(textFrames(), { fault: { after: 1, kind: 'stall' } }), sseResponse(textFrames()));
    const chunks = await collectThroughSilence(
      provider({ idleTimeoutMs: 100 }).provider.stream(modelRequest()),
      (chunk) => chunk.type === 'text-delta',
      100,
    );
    expect(chunksOfType(chunks, 'retry')[0]).toMatchObject({ discardOutput: true, error: { code: 'timeout' } });
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('ends with a CancelledError, not a retry, when the request is aborted mid-stream', async () => {
    server().reply(sseResponse(textFrames(), { fault: { after: 1, kind: 'stall' } }));
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const batch of provider().provider.stream(modelRequest({ signal: controller.signal }))) {
        for (const chunk of batch) {
          seen.push(chunk.type);
          if (chunk.type === 'text-delta') controller.abort();
        }
      }
    };
    const error = await run().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CancelledError);
    expect(seen).toEqual(['text-delta']);
    expect(server().requests).toHaveLength(1);
  });

  it('restarts the step after an event that is not JSON', async () => {
    const frames = textFrames();
    server().reply(
      sseResponse([frames[0] as string, 'data: {"candidates":[{"content":{"parts":[{"te\n\n', ...frames.slice(1)]),
      sseResponse(frames),
    );
    const chunks = await collectChunks(provider().provider.stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]?.error).toMatchObject({ code: 'stream_broken', retryable: true });
    expect(textOf(keptChunks(chunks))).toBe(TEXT);
  });

  it('stops with invalid_response on an event that is JSON but not the API shape', async () => {
    server().reply(sseResponse(['data: {"candidates":{"text":"hi"}}\n\n']));
    const { chunks, error } = await collectUntilError(provider().provider.stream(modelRequest()));
    expect(chunks).toEqual([]);
    expect(error).toMatchObject({ code: 'invalid_response', retryable: false });
    expect((error as Error).message).toMatch(/malformed response: its "candidates" is an object, not a list/);
    expect(server().requests).toHaveLength(1);
  });

  it('asks to compact when the conversation does not fit the window', async () => {
    const tooLong = 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).';
    server().reply(jsonResponse(400, googleError(400, 'INVALID_ARGUMENT', tooLong)));
    const { error } = await collectUntilError(provider().provider.stream(modelRequest()));
    expect(error).toMatchObject({ code: 'context_length', action: 'compact', statusCode: 400 });
  });

  it('reports a model without function calling as tools_unsupported, so auto mode turns to XML', async () => {
    const message = 'Function calling is not enabled for models/gemma-3-27b-it';
    server().reply(jsonResponse(400, googleError(400, 'INVALID_ARGUMENT', message)));
    const request = modelRequest({ tools: [WEATHER_TOOL] });
    const { error } = await collectUntilError(provider({ model: 'gemma-3-27b-it' }).provider.stream(request));
    expect(error).toMatchObject({ code: 'tools_unsupported', action: 'stop' });
  });

  it('stops at once, saying so, when nothing listens at a local base URL', async () => {
    const closed = await FixtureServer.start();
    const url = closed.url;
    await closed.close();
    const { error } = await collectUntilError(provider({ baseURL: url }).provider.stream(modelRequest()));
    expect(error).toMatchObject({ code: 'network', retryable: false });
    expect((error as Error).message).toMatch(
      /^Cannot reach the server at http:\/\/127\.0\.0\.1:\d+: nothing is listening/,
    );
  });

  it('stops on an unknown API key, saying how to give one', async () => {
    const body = {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
      },
    };
    server().reply(jsonResponse(400, body));
    const { error } = await collectUntilError(provider().provider.stream(modelRequest()));
    expect(error).toMatchObject({ code: 'authentication', action: 'stop', statusCode: 400 });
    expect((error as Error).message).toMatch(/API key not valid.*\(set GEMINI_API_KEY or pass the apiKey option\)$/);
    expect(server().requests).toHaveLength(1);
  });

  it('stops on a 400 invalid request and a 403, naming the model on a 404', async () => {
    server().reply(
      jsonResponse(
        400,
        googleError(400, 'INVALID_ARGUMENT', 'Thinking level MINIMAL is not supported for this model.'),
      ),
      jsonResponse(404, googleError(404, 'NOT_FOUND', 'models/gemini-9 is not found for API version v1beta')),
    );
    const first = await collectUntilError(provider().provider.stream(modelRequest()));
    expect(first.error).toMatchObject({ code: 'invalid_request', action: 'stop' });
    const second = await collectUntilError(provider({ model: 'gemini-9' }).provider.stream(modelRequest()));
    expect(second.error).toMatchObject({ code: 'not_found' });
    expect((second.error as Error).message).toMatch(/\(404 NOT_FOUND\) for model "gemini-9"/);
  });
});

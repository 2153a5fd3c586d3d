import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chunkLines,
  chunkLinesToFrames,
  chunksOfType,
  collectChunks,
  collectThroughSilence,
  collectUntilError,
  jsonResponse,
  keptChunks,
  modelRequest,
  readJsonFixture,
  splitResponses,
  sseResponse,
  testProviderOptions,
  textOf,
  toolCallsOf,
  useFixtureServer,
} from '../test-support/index.js';
import type { OpenAIProviderOptions } from './openai-provider-options.js';
import { OpenAIResponsesProvider } from './openai-responses-provider.js';

// Recorded Responses API failures, and faults injected into recorded streams by the local server.
const server = useFixtureServer();

function provider(options: Partial<OpenAIProviderOptions> = {}) {
  const { options: shared } = testProviderOptions(`${server().url}/v1`);
  return new OpenAIResponsesProvider({ model: 'gpt-5.1-codex-max', compatible: false, ...shared, ...options });
}

const textFrames = () => chunkLinesToFrames(chunkLines('vercel-ai/azure-text.1.chunks.txt'), 'responses');
const CALCULATOR = {
  name: 'calculator',
  description: 'Basic arithmetic',
  inputSchema: { type: 'object', properties: {} },
};

describe('OpenAIResponsesProvider failures', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails without retrying when the stream reports a spent quota', async () => {
    server().reply(sseResponse(chunkLinesToFrames(chunkLines('vercel-ai/openai-error.1.chunks.txt'), 'responses')));
    const { chunks, error } = await collectUntilError(provider().stream(modelRequest()));
    expect(chunks).toEqual([]);
    expect(error).toMatchObject({ code: 'rate_limit', retryable: false });
    expect((error as Error).message).toMatch(
      /^Error from the server at http:\/\/127\.0\.0\.1:\d+\/v1 \(insufficient_quota\): You exceeded your current quota/,
    );
    expect(server().requests).toHaveLength(1);
  });

  it('retries a response.failed for a rate limit', async () => {
    server().reply(
      sseResponse(chunkLinesToFrames(chunkLines('vercel-ai/openai-response-failed-only.1.chunks.txt'), 'responses')),
      sseResponse(textFrames()),
    );
    const chunks = await collectChunks(provider().stream(modelRequest()));
    const [retry] = chunksOfType(chunks, 'retry');
    expect(retry?.error).toMatchObject({ code: 'rate_limit', retryable: true });
    expect(retry?.error.message).toContain('Request too large for gpt-4o-mini');
    expect(textOf(keptChunks(chunks))).toBe('Hello');
  });

  it('stops at once on a real 400', async () => {
    server().reply(jsonResponse(400, readJsonFixture('vercel-ai/reasoning-model-temperature-error.json')));
    const { error } = await collectUntilError(provider().stream(modelRequest({ settings: { temperature: 0.2 } })));
    expect(error).toMatchObject({ code: 'invalid_request', statusCode: 400 });
    expect(server().requests).toHaveLength(1);
  });

  it('retries a stream cut mid-way, emitting the reasoning and the function call once', async () => {
    const [first] = splitResponses(chunkLines('vercel-ai/openai-reasoning-encrypted-content.1.chunks.txt'));
    const frames = chunkLinesToFrames(first!, 'responses');
    server().reply(sseResponse(frames, { fault: { after: 45, kind: 'reset' } }), sseResponse(frames));
    const chunks = await collectChunks(provider().stream(modelRequest({ tools: [CALCULATOR] })));
    expect(chunksOfType(chunks, 'retry')[0]).toMatchObject({ discardOutput: true, error: { code: 'stream_broken' } });
    const kept = keptChunks(chunks);
    expect(toolCallsOf(kept)).toHaveLength(1);
    expect(chunksOfType(kept, 'thinking-end')).toHaveLength(1);
  });

  it('treats a stream that ends before response.completed as broken', async () => {
    server().reply(sseResponse(textFrames(), { fault: { after: 6, kind: 'close' } }), sseResponse(textFrames()));
    const chunks = await collectChunks(provider().stream(modelRequest()));
    expect(chunksOfType(chunks, 'retry')[0]).toMatchObject({ error: { code: 'stream_broken' } });
    expect(textOf(keptChunks(chunks))).toBe('Hello');
  });

  it.each([
    ['"output" is null', { output: null }, 'its "output" is null, not a list of output items'],
    // Without `object: "response"` the SDK leaves the body alone, and a null output read as an empty turn.
    [
      '"output" is null and it names no object',
      { object: undefined, output: null },
      'its "output" is null, not a list of output items',
    ],
    ['an output item has no type', { output: [{ id: 'msg_1' }] }, 'its output item 0 is an object without a "type"'],
    ['"usage" is a number', { usage: 70 }, 'its "usage" is a number, not an object'],
  ])("stops with invalid_response, not an empty turn, when a non-streamed body's %s", async (_case, change, what) => {
    server().reply(jsonResponse(200, { ...readJsonFixture<object>('vercel-ai/openai-custom-tool.1.json'), ...change }));
    const { chunks, error } = await collectUntilError(provider({ streaming: false }).stream(modelRequest()));
    expect(chunks).toEqual([]);
    expect(error).toMatchObject({ code: 'invalid_response', retryable: false, action: 'stop' });
    expect((error as Error).message).toBe(
      `The server at ${server().url}/v1 sent a malformed response: ${what}. Check that the base URL points at ` +
        'the API the provider speaks.',
    );
    expect(server().requests).toHaveLength(1);
  });

  it('retries a stalled stream after the idle timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    // Silent after its first text, so that the test sees when the silence begins.
    server().reply(sseResponse(textFrames(), { fault: { after: 5, kind: 'stall' } }), sseResponse(textFrames()));
    const chunks = await collectThroughSilence(
      provider({ idleTimeoutMs: 100 }).stream(modelRequest()),
      (chunk) => chunk.type === 'text-delta',
      100,
    );
    expect(chunksOfType(chunks, 'retry')[0]).toMatchObject({ error: { code: 'timeout' } });
    expect(textOf(keptChunks(chunks))).toBe('Hello');
  });
});

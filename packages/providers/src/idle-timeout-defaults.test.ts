import type { LLMProvider } from '@agentloop/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnthropicProvider } from './anthropic/index.js';
import { OpenAIProvider, OpenAIResponsesProvider } from './openai/index.js';
import { collectUntilError, modelRequest } from './test-support/index.js';

// The idle timeouts the providers README promises: 60 s for Anthropic and OpenAI, 300 s for an
// OpenAI-compatible server (a local model may think for minutes before its first token). The server is a
// `fetch` that never answers, and the clock is faked: no network, no real wait.

/** A fetch that never answers, as a server that accepted the request and then went silent. */
const silentFetch = () => new Promise<Response>(() => {});

const shared = {
  apiKey: 'test-key',
  baseURL: 'http://127.0.0.1:9/v1',
  retry: { maxRetries: 0 },
  clientOptions: { fetch: silentFetch, logLevel: 'off' as const },
};

/** Resolves once the provider's stream failed; `failed()` says whether it has yet. */
function streamOf(provider: LLMProvider) {
  let failure: unknown;
  let failed = false;
  const done = collectUntilError(provider.stream(modelRequest())).then(({ error }) => {
    failure = error;
    failed = true;
  });
  return { done, failed: () => failed, failure: () => failure };
}

async function expectIdleTimeoutAfter(provider: LLMProvider, idleTimeoutMs: number): Promise<void> {
  const stream = streamOf(provider);
  await vi.advanceTimersByTimeAsync(idleTimeoutMs - 1);
  expect(stream.failed()).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(stream.failed()).toBe(true);
  await stream.done;
  expect(stream.failure()).toMatchObject({
    code: 'timeout',
    message: expect.stringContaining(`the stream sent nothing for ${idleTimeoutMs} ms`),
  });
}

describe('the default idle timeout', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is 60 s for Anthropic', async () => {
    vi.useFakeTimers();
    await expectIdleTimeoutAfter(new AnthropicProvider({ model: 'claude-sonnet-4-5', ...shared }), 60_000);
  });

  it('is 60 s for OpenAI Chat Completions and Responses', async () => {
    vi.useFakeTimers();
    await expectIdleTimeoutAfter(new OpenAIProvider({ model: 'gpt-5-mini', compatible: false, ...shared }), 60_000);
    await expectIdleTimeoutAfter(
      new OpenAIResponsesProvider({ model: 'gpt-5-mini', compatible: false, ...shared }),
      60_000,
    );
  });

  it('is 300 s for an OpenAI-compatible server', async () => {
    vi.useFakeTimers();
    await expectIdleTimeoutAfter(new OpenAIProvider({ model: 'llama3.1', compatible: true, ...shared }), 300_000);
  });

  it('is the one given in idleTimeoutMs', async () => {
    vi.useFakeTimers();
    await expectIdleTimeoutAfter(
      new AnthropicProvider({ model: 'claude-sonnet-4-5', ...shared, idleTimeoutMs: 5_000 }),
      5_000,
    );
    await expectIdleTimeoutAfter(
      new OpenAIProvider({ model: 'llama3.1', compatible: true, ...shared, idleTimeoutMs: 7_000 }),
      7_000,
    );
  });
});

import type { LLMProvider } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../anthropic/index.js';
import { OpenAIProvider, OpenAIResponsesProvider } from '../openai/index.js';
import {
  anthropicAnswer,
  chatAnswer,
  collectChunks,
  modelRequest,
  responsesAnswer,
  sseResponse,
  testProviderOptions,
  textOf,
  useFixtureServer,
} from '../test-support/index.js';
import { drainInBackground } from './drain-in-background.js';

const server = useFixtureServer();

/** A stream of numbers, with the controller an SDK stream carries and a record of what was read. */
function numberStream(count: number, options: { holdAfter?: number } = {}) {
  const read: number[] = [];
  const controller = new AbortController();
  let returned = false;
  const stream = {
    controller,
    async *[Symbol.asyncIterator]() {
      try {
        for (let value = 1; value <= count; value++) {
          if (options.holdAfter !== undefined && value > options.holdAfter) {
            // A server that keeps the connection open: nothing more until the request is cut.
            await new Promise((resolve) => controller.signal.addEventListener('abort', resolve));
            return;
          }
          read.push(value);
          yield value;
        }
      } finally {
        returned = true;
      }
    },
  };
  return { stream, read, controller, returned: () => returned };
}

describe('drainInBackground', () => {
  it('reads the rest of a response to its end, without cutting it', async () => {
    const { stream, read, controller, returned } = numberStream(5);
    const iterator = stream[Symbol.asyncIterator]();
    for (let event = 0; event < 3; event++) await iterator.next();
    drainInBackground(iterator, controller, 1_000);
    await expect.poll(returned).toBe(true);
    // The tail was read to its end (the connection could go back to the pool), not cut.
    expect(read).toEqual([1, 2, 3, 4, 5]);
    expect(controller.signal.aborted).toBe(false);
  });

  it('cuts a tail that does not end within the grace period', async () => {
    const { stream, controller, returned } = numberStream(5, { holdAfter: 2 });
    const iterator = stream[Symbol.asyncIterator]();
    for (let event = 0; event < 2; event++) await iterator.next();
    drainInBackground(iterator, controller, 20);
    expect(controller.signal.aborted).toBe(false);
    await expect.poll(() => controller.signal.aborted).toBe(true);
    await expect.poll(returned).toBe(true);
  });
});

/**
 * Options for a provider on the fixture server whose `fetch` says when the client has read a response's
 * body to its end (by then the connection is back in the pool), so that a test waits for that instead of
 * for a guessed number of milliseconds. A body that is cut never ends: the test then fails by its timeout.
 */
function trackedOptions(baseURL: string) {
  const { options } = testProviderOptions(baseURL);
  const bodiesRead: Promise<void>[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if (!response.body) return response;
    let read = (): void => {};
    bodiesRead.push(
      new Promise<void>((resolve) => {
        read = resolve;
      }),
    );
    const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: () => read() }));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { options: { ...options, clientOptions: { ...options.clientOptions, fetch } }, bodiesRead };
}

describe('providers with a server that ends the body a little after the final event', () => {
  let bodiesRead: Promise<void>[] = [];
  const tracked = (baseURL: string) => {
    const made = trackedOptions(baseURL);
    bodiesRead = made.bodiesRead;
    return made.options;
  };
  const providers: Array<[string, () => LLMProvider, () => string[]]> = [
    [
      'Anthropic',
      () => new AnthropicProvider({ model: 'claude-sonnet-4-6', ...tracked(server().url) }),
      // `message_stop`, then the end of the body later.
      () => [...anthropicAnswer({ text: 'Hi!' }), ''],
    ],
    [
      'OpenAI Chat Completions',
      () =>
        new OpenAIProvider({
          model: 'gpt-4o',
          compatible: false,
          ...tracked(`${server().url}/v1`),
        }),
      // The usage chunk, then `[DONE]` later.
      () => chatAnswer({ text: 'Hi!' }),
    ],
    [
      'OpenAI Responses',
      () =>
        new OpenAIResponsesProvider({
          model: 'gpt-5.1',
          compatible: false,
          ...tracked(`${server().url}/v1`),
        }),
      // `response.completed`, then the end of the body later.
      () => [...responsesAnswer({ text: 'Hi!' }), ''],
    ],
  ];

  it.each(providers)('%s keeps the connection for the next request', async (_name, create, frames) => {
    const provider = create();
    for (let request = 0; request < 3; request++) {
      server().reply(sseResponse(frames(), { lastFrameDelayMs: 30 }));
      const chunks = await collectChunks(provider.stream(modelRequest()));
      expect(textOf(chunks)).toBe('Hi!');
      expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
      // The background read sees the end of the body, and the connection goes back to the pool.
      await bodiesRead[request];
      // The connection goes back to the pool once undici has handled the end, a turn of the event loop later.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server().requests).toHaveLength(3);
    // Cutting the body at the final event would open a connection per request.
    expect(server().connections).toBeLessThanOrEqual(1);
  });
});

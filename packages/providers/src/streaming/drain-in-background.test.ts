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

describe('providers with a server that ends the body a little after the final event', () => {
  const providers: Array<[string, () => LLMProvider, () => string[]]> = [
    [
      'Anthropic',
      () => new AnthropicProvider({ model: 'claude-sonnet-4-6', ...testProviderOptions(server().url).options }),
      // `message_stop`, then the end of the body later.
      () => [...anthropicAnswer({ text: 'Hi!' }), ''],
    ],
    [
      'OpenAI Chat Completions',
      () =>
        new OpenAIProvider({
          model: 'gpt-4o',
          compatible: false,
          ...testProviderOptions(`${server().url}/v1`).options,
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
          ...testProviderOptions(`${server().url}/v1`).options,
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
      // Let the background read see the end of the body, so the connection is back in the pool.
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    expect(server().requests).toHaveLength(3);
    // Cutting the body at the final event would open a connection per request.
    expect(server().connections).toBeLessThanOrEqual(1);
  });
});

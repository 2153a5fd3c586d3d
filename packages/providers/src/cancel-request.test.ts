import { getEventListeners } from 'node:events';
import { DefaultAgent, type LLMProvider } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic/index.js';
import { OpenAIProvider, OpenAIResponsesProvider } from './openai/index.js';
import {
  anthropicAnswer,
  chatAnswer,
  collectChunks,
  modelRequest,
  type Responder,
  responsesAnswer,
  sseResponse,
  testProviderOptions,
  useFixtureServer,
} from './test-support/index.js';

// A cancel must reach the HTTP request: a run that ends while its request stays open would keep the
// server generating (and billing) an answer nobody reads.
const server = useFixtureServer();

type Vendor = {
  name: string;
  frames: (text: string) => string[];
  provider: (baseURL: string, idleTimeoutMs: number) => LLMProvider;
};

const vendors: Vendor[] = [
  {
    name: 'Anthropic',
    frames: (text) => anthropicAnswer({ text }),
    provider: (baseURL, idleTimeoutMs) =>
      new AnthropicProvider({ model: 'claude-sonnet-4-6', idleTimeoutMs, ...testProviderOptions(baseURL).options }),
  },
  {
    name: 'OpenAI Chat Completions',
    frames: (text) => chatAnswer({ text }),
    provider: (baseURL, idleTimeoutMs) =>
      new OpenAIProvider({
        model: 'gpt-4o',
        compatible: false,
        idleTimeoutMs,
        ...testProviderOptions(baseURL).options,
      }),
  },
  {
    name: 'OpenAI Responses',
    frames: (text) => responsesAnswer({ text }),
    provider: (baseURL, idleTimeoutMs) =>
      new OpenAIResponsesProvider({ model: 'gpt-4o', idleTimeoutMs, ...testProviderOptions(baseURL).options }),
  },
];

/** Sends the head of an answer, then goes silent; `closed` settles when the client drops the request. */
function stallingAfterText(frames: readonly string[]): { responder: Responder; closed: Promise<'closed'> } {
  let onClose: () => void = () => undefined;
  const closed = new Promise<'closed'>((resolve) => {
    onClose = () => resolve('closed');
  });
  const textFrame = frames.findIndex((frame) => frame.includes('delta') && frame.includes('Hello'));
  const stalling = sseResponse(frames, { fault: { after: textFrame + 1, kind: 'stall' } });
  return {
    closed,
    responder: (response, request) => {
      response.on('close', onClose);
      return stalling(response, request);
    },
  };
}

const timeout = (ms: number) => new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms));

describe.each(vendors)('cancelling a run on $name', (vendor) => {
  it.each([
    ['with the idle timeout', 60_000],
    ['without an idle timeout', 0],
  ])('closes the HTTP request %s', async (_, idleTimeoutMs) => {
    const { responder, closed } = stallingAfterText(vendor.frames('Hello there'));
    server().reply(responder);
    const agent = new DefaultAgent(vendor.provider(server().url, idleTimeoutMs), { toolProtocol: 'native' });
    // Cancelled while the loop waits for the next chunk, as a user's Ctrl-C mostly comes.
    agent.once('message-content', () => setTimeout(() => agent.cancel('user pressed Ctrl-C'), 20));

    const result = await agent.run('Say hello.');

    expect(result.exit).toBe('cancelled');
    expect(await Promise.race([closed, timeout(2_000)])).toBe('closed');
  });

  it('leaves no listener on the signal of a request it finished', async () => {
    const controller = new AbortController();
    for (let index = 0; index < 3; index++) {
      server().reply(sseResponse(vendor.frames('Hello')));
      const chunks = await collectChunks(
        vendor.provider(server().url, 0).stream(modelRequest({ signal: controller.signal })),
      );
      expect(chunks.at(-1)?.type).toBe('finish');
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

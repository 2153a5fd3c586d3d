import { getEventListeners } from 'node:events';
import { DefaultAgent } from '@agentloop/core';
import type { LLMProvider } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic/index.js';
import { OpenAIProvider, OpenAIResponsesProvider } from './openai/index.js';
import {
  anthropicAnswer,
  chatAnswer,
  collectChunks,
  jsonResponse,
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
  /** A streamed answer's SSE frames. */
  frames: (text: string) => string[];
  /** A non-streamed answer's body. */
  json: (text: string) => unknown;
  provider: (baseURL: string, idleTimeoutMs: number, options?: { streaming?: boolean }) => LLMProvider;
};

const usage = { input_tokens: 10, output_tokens: 2 };

const vendors: Vendor[] = [
  {
    name: 'Anthropic',
    frames: (text) => anthropicAnswer({ text }),
    json: (text) => ({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    }),
    provider: (baseURL, idleTimeoutMs, options) =>
      new AnthropicProvider({
        model: 'claude-sonnet-4-6',
        idleTimeoutMs,
        ...testProviderOptions(baseURL).options,
        ...options,
      }),
  },
  {
    name: 'OpenAI Chat Completions',
    frames: (text) => chatAnswer({ text }),
    json: (text) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    }),
    provider: (baseURL, idleTimeoutMs, options) =>
      new OpenAIProvider({
        model: 'gpt-4o',
        compatible: false,
        idleTimeoutMs,
        ...testProviderOptions(baseURL).options,
        ...options,
      }),
  },
  {
    name: 'OpenAI Responses',
    frames: (text) => responsesAnswer({ text }),
    json: (text) => ({
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'gpt-4o',
      output: [
        {
          id: 'msg_1',
          type: 'message',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text, annotations: [] }],
        },
      ],
      usage: { ...usage, total_tokens: 12 },
    }),
    provider: (baseURL, idleTimeoutMs, options) =>
      new OpenAIResponsesProvider({
        model: 'gpt-4o',
        idleTimeoutMs,
        ...testProviderOptions(baseURL).options,
        ...options,
      }),
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

describe.each(vendors)('cancelling a run on $name', (vendor) => {
  it.each([
    ['with the idle timeout', 60_000],
    ['without an idle timeout', 0],
  ])('closes the HTTP request %s', async (_, idleTimeoutMs) => {
    const { responder, closed } = stallingAfterText(vendor.frames('Hello there'));
    server().reply(responder);
    const agent = new DefaultAgent(vendor.provider(server().url, idleTimeoutMs), { toolProtocol: 'native' });
    // Cancelled while the loop waits for the next chunk, as a user's Ctrl-C mostly comes: the answer is
    // silent after its first text.
    agent.once('message-content', () => setImmediate(() => agent.cancel('user pressed Ctrl-C')));

    const result = await agent.run('Say hello.');

    expect(result.exit).toBe('cancelled');
    // Waits for the server to see the connection close; a request left open fails the test by its timeout.
    expect(await closed).toBe('closed');
  });

  it('closes the HTTP request when the consumer stops reading before the answer is complete', async () => {
    const { responder, closed } = stallingAfterText(vendor.frames('Hello there'));
    server().reply(responder);
    const stream = vendor.provider(server().url, 0).stream(modelRequest());
    for await (const batch of stream) if (batch.some((chunk) => chunk.type === 'text-delta')) break;
    expect(await closed).toBe('closed');
  });

  it('lets a complete answer end its response, however early the consumer stops', async () => {
    // The last frame (the end of the body) comes late: the step is over by then, and stopping the stream
    // after its last chunk must not cut the response, whose connection goes back to the pool. A cut would
    // reach the server before the last frame: the response would close unfinished.
    const late = sseResponse(vendor.frames('Hello'), { lastFrameDelayMs: 150 });
    const finished = new Promise<boolean>((resolve) => {
      server().reply(async (response, request) => {
        response.on('close', () => resolve(response.writableFinished));
        await late(response, request);
      });
    });
    const stream = vendor.provider(server().url, 0).stream(modelRequest());
    const seen: string[] = [];
    for await (const batch of stream) {
      seen.push(...batch.map((chunk) => chunk.type));
      if (batch.some((chunk) => chunk.type === 'finish' || chunk.type === 'usage')) break;
    }
    expect(seen).toContain('text-delta');
    expect(await finished).toBe(true);
  });

  it.each([
    ['streamed', true],
    ['not streamed', false],
  ])('leaves no listener on the signal of a request it finished (%s), also after a retry', async (_, streaming) => {
    const controller = new AbortController();
    for (let index = 0; index < 3; index++) {
      server().reply(jsonResponse(500, { error: { type: 'api_error', message: 'boom' } }));
      server().reply(streaming ? sseResponse(vendor.frames('Hello')) : jsonResponse(200, vendor.json('Hello')));
      const provider = vendor.provider(server().url, 0, { streaming });
      const chunks = await collectChunks(provider.stream(modelRequest({ signal: controller.signal })));
      expect(chunks.filter((chunk) => chunk.type === 'retry')).toHaveLength(1);
      expect(chunks.at(-1)?.type).toBe('finish');
    }
    expect(server().requests).toHaveLength(6);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

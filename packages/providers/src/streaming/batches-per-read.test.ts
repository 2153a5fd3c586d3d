import type { LLMProvider } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../anthropic/index.js';
import { OpenAIProvider, OpenAIResponsesProvider } from '../openai/index.js';
import {
  anthropicAnswer,
  chatAnswer,
  collectBatches,
  modelRequest,
  type Responder,
  responsesAnswer,
  testProviderOptions,
  textOf,
  useFixtureServer,
} from '../test-support/index.js';

const server = useFixtureServer();

/** The whole answer in one write, as a server that has it all at once sends it: one read for the client. */
const inOneWrite =
  (frames: readonly string[]): Responder =>
  (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.end(frames.join(''));
  };

describe('a streamed answer that arrives in one network read', () => {
  const providers: Array<[string, () => LLMProvider, () => string[]]> = [
    [
      'Anthropic',
      () => new AnthropicProvider({ model: 'claude-sonnet-4-6', ...testProviderOptions(server().url).options }),
      () => anthropicAnswer({ text: 'Hello there, how are you?' }),
    ],
    [
      'OpenAI Chat Completions',
      () =>
        new OpenAIProvider({
          model: 'gpt-4o',
          compatible: false,
          ...testProviderOptions(`${server().url}/v1`).options,
        }),
      () => chatAnswer({ text: 'Hello there, how are you?' }),
    ],
    [
      'OpenAI Responses',
      () =>
        new OpenAIResponsesProvider({
          model: 'gpt-5.1',
          compatible: false,
          ...testProviderOptions(`${server().url}/v1`).options,
        }),
      () => responsesAnswer({ text: 'Hello there, how are you?' }),
    ],
  ];

  it.each(providers)('%s yields it as one batch', async (_name, create, frames) => {
    server().reply(inOneWrite(frames()));
    const batches = await collectBatches(create().stream(modelRequest()));
    expect(batches).toHaveLength(1);
    const [batch = []] = batches;
    expect(textOf(batch)).toBe('Hello there, how are you?');
    expect(batch.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
  });
});

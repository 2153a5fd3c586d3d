import { DefaultAgent, defineTool } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicProvider } from '../anthropic/anthropic-provider.js';
import { OpenAIProvider } from '../openai/openai-provider.js';
import {
  chatAnswer,
  chunkFrames,
  rawSseFrames,
  readFixture,
  sseResponse,
  testProviderOptions,
  useFixtureServer,
} from '../test-support/index.js';

// A run's metrics, from the usage real providers reported in recorded traffic and the prices of the model
// table: what `result.metrics` and `agent.metrics` say is what the vendor would bill.
const server = useFixtureServer();

const weather = defineTool({
  name: 'GetWeatherArgs',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string(), country: z.string(), units: z.enum(['c', 'f']) }),
  execute: ({ city, units }) => `14°${units.toUpperCase()} in ${city}`,
});
const stockPrice = defineTool({
  name: 'get_stock_price',
  description: 'The price of a stock',
  parameters: z.object({ ticker: z.string(), exchange: z.string() }),
  execute: ({ ticker }) => `${ticker}: 227.52 USD`,
});

describe('run metrics over recorded traffic', () => {
  it('gpt-4o: the recorded usage added up, priced at the table’s gpt-4o rates, the context in its 128k window', async () => {
    const recorded = (hash: string) => sseResponse(rawSseFrames(readFixture(`openai-python/${hash}.bin`)));
    server().reply(
      // Recorded: 149 input and 60 output tokens, then 76 and 24.
      recorded('f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b'),
      recorded('c6aa7e397b7123c3501f25df3a05d4daf7e8ad6d61ffa406ab5361fe36a8d5b1'),
      // Written in the vendor's format: 100 input and 20 output tokens.
      sseResponse(
        chatAnswer({ toolCalls: [{ id: 'call_done', name: 'task_completion', arguments: { result: 'Done.' } }] }),
      ),
    );
    const provider = new OpenAIProvider({
      model: 'gpt-4o-2024-08-06',
      compatible: false,
      ...testProviderOptions(`${server().url}/v1`).options,
    });
    const agent = new DefaultAgent(provider, { tools: [weather, stockPrice], toolProtocol: 'native' });

    const result = await agent.run('Weather in Edinburgh and the AAPL price?');

    expect(result.exit).toBe('task_completion');
    expect(result.metrics).toMatchObject({
      modelCalls: 3,
      toolCalls: 4,
      toolErrors: 0,
      retries: 0,
      usage: { inputTokens: 325, outputTokens: 104 },
      context: { usedTokens: 120, windowTokens: 128_000, fraction: 120 / 128_000 },
    });
    expect(result.metrics.costUsd).toBeCloseTo((325 * 2.5 + 104 * 10) / 1e6, 12);
    expect(agent.metrics.costUsd).toBeCloseTo(result.metrics.costUsd ?? Number.NaN, 12);
  });

  it('Claude: cache reads priced at their rate; a model the table has no price for gets no cost', async () => {
    const cacheRead = () =>
      sseResponse(chunkFrames('vercel-ai/anthropic-issue-5942-cache-read.chunks.txt', 'anthropic'));
    // The same recorded bytes served for claude-opus-4-6, whose price the table does not list, and for
    // claude-sonnet-4-6, which it lists (the recording's own model).
    for (const [model, priced] of [
      ['claude-opus-4-6', false],
      ['claude-sonnet-4-6', true],
    ] as const) {
      server().reply(cacheRead(), cacheRead(), cacheRead());
      const provider = new AnthropicProvider({ model, ...testProviderOptions(server().url).options });
      const agent = new DefaultAgent(provider, { toolProtocol: 'native' });

      // A text answer three times in a row is taken as `converse`.
      const result = await agent.run('Hi');

      expect(result.exit).toBe('converse');
      expect(result.metrics.usage).toMatchObject({ inputTokens: 3 * 18_642, cacheReadTokens: 3 * 18_639 });
      expect(result.metrics.context).toMatchObject({ windowTokens: 200_000, usedTokens: 18_643 });
      if (priced) expect(result.metrics.costUsd).toBeCloseTo(3 * ((3 * 3 + 18_639 * 0.3 + 1 * 15) / 1e6), 12);
      else expect(result.metrics).not.toHaveProperty('costUsd');
    }
  });
});

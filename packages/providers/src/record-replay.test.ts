// The recorder and replayer of @agentloop/core/testing on real traffic: a DefaultAgent runs against a
// real provider talking to recorded API responses (src/__fixtures__, served from 127.0.0.1) through
// recordProvider; the cassette then replays through a fresh agent with no server at all, which must end
// the same way and emit the same events. It lives here because only the providers' tests may use both
// a provider and core (scripts/check-imports.mjs, TEST_LAYERS); core never imports a provider.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentEvent,
  type AgentResult,
  DefaultAgent,
  defineTool,
  type LLMProvider,
  type MessagePart,
  ProviderError,
} from '@agentloop/core';
import { recordProvider, replayProvider } from '@agentloop/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicProvider } from './anthropic/anthropic-provider.js';
import { OpenAIProvider } from './openai/openai-provider.js';
import { OpenAIResponsesProvider } from './openai/openai-responses-provider.js';
import {
  calculatorTool,
  chatAnswer,
  chunkFrames,
  chunkLines,
  chunkLinesToFrames,
  rawSseFrames,
  readExchanges,
  readFixture,
  recordedResponse,
  responsesAnswer,
  splitResponses,
  sseResponse,
  testProviderOptions,
  useFixtureServer,
} from './test-support/index.js';

const server = useFixtureServer();
let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'agentloop-cassette-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const searchDocs = defineTool({
  name: 'searchDocs',
  description: 'Searches the docs',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }) => `3 pages about ${query}`,
});
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

/** An agent with a fixed clock, ids and session, so that two runs of it emit the same events. */
function agentOn(provider: LLMProvider) {
  const agent = new DefaultAgent(provider, {
    systemPrompt: 'You answer with the tools.',
    maxIterations: 6,
    toolProtocol: 'native',
    tools: [searchDocs, weather, stockPrice, calculatorTool],
    now: () => 0,
    createId: () => 'run-1',
    sessionId: 'session-1',
    workspace: '/work',
  });
  const events: AgentEvent[] = [];
  agent.onAny((event) => events.push(event));
  return { agent, events };
}

/** Records a run through `provider`, replays the cassette through a fresh agent, and returns both. */
async function recordAndReplay(provider: LLMProvider, input: string) {
  const file = join(folder, `${provider.id}.cassette.jsonl`);
  const recording = agentOn(recordProvider(provider, file, { secrets: ['test-key'] }));
  const original = await recording.agent.run(input);
  const requestsServed = server().requests.length;

  const replay = replayProvider(file, { secrets: ['test-key'] });
  const replaying = agentOn(replay);
  const replayed = await replaying.agent.run(input);
  replay.assertComplete();
  expect(server().requests).toHaveLength(requestsServed); // the replay talked to no server
  return {
    original,
    replayed,
    requestsServed,
    cassette: readFileSync(file, 'utf8'),
    // Events as JSON, so that the errors they carry compare by their fields.
    events: { original: plain(recording.events), replayed: plain(replaying.events) },
  };
}

const plain = (events: AgentEvent[]) => JSON.parse(JSON.stringify(events)) as unknown[];

/** A result with its error as JSON: a cassette keeps what a program acts on, not the SDK error it wrapped. */
const comparable = (result: AgentResult) => ({ ...result, error: result.error?.toJSON() });

describe('a cassette of real provider traffic replays through a DefaultAgent', () => {
  it('Anthropic: two real 429s retried, three parallel tool uses, then a real 400 ending the run', async () => {
    const [, badRequest] = readExchanges('anthropic-sdk-python/f59a9391-643b-422c-96dc-1f28bc7ea4d7.json');
    server().reply(
      ...readExchanges('anthropic-sdk-python/a8b7dbb8-2321-4624-abdb-7ba2136b5c38.json').map(recordedResponse),
      sseResponse(chunkFrames('vercel-ai/anthropic-issue-15652-false.chunks.txt', 'anthropic')),
      recordedResponse(badRequest!),
    );
    const anthropic = new AnthropicProvider({
      model: 'claude-sonnet-4-5',
      ...testProviderOptions(server().url).options,
    });

    const { original, replayed, requestsServed, cassette, events } = await recordAndReplay(
      anthropic,
      'Extract the order ids, then search the docs for alpha, beta and gamma.',
    );

    expect(requestsServed).toBe(5);
    expect(original.exit).toBe('error');
    expect(original.iterations).toBe(3);
    expect(comparable(replayed)).toEqual(comparable(original));
    expect(replayed.error).toBeInstanceOf(ProviderError);
    expect(replayed.error).toMatchObject({ code: 'invalid_request', statusCode: 400, provider: 'anthropic' });
    expect(replayed.error?.message).toContain('unexpected `tool_use_id` found in `tool_result` blocks');
    expect(events.replayed).toEqual(events.original);
    const types = events.replayed.map((event) => (event as AgentEvent).type);
    expect(types.filter((type) => type === 'retry')).toHaveLength(2);
    expect(types.filter((type) => type === 'tool-result')).toHaveLength(3);
    expect(events.replayed.find((event) => (event as AgentEvent).type === 'retry')).toMatchObject({
      error: { code: 'rate_limit', statusCode: 429, retryable: true },
    });
    expect(cassette).not.toContain('test-key');
  });

  it('OpenAI Responses: a real run of four calls with encrypted reasoning, then task_completion', async () => {
    const calls = splitResponses(chunkLines('vercel-ai/openai-reasoning-encrypted-content.1.chunks.txt'));
    server().reply(
      ...calls.map((lines) => sseResponse(chunkLinesToFrames(lines, 'responses'))),
      sseResponse(
        responsesAnswer(
          { toolCalls: [{ id: 'call_done', name: 'task_completion', arguments: { result: '570' } }] },
          'resp_done',
        ),
      ),
    );
    const openai = new OpenAIResponsesProvider({
      model: 'gpt-5.1-codex-max',
      compatible: false,
      ...testProviderOptions(`${server().url}/v1`).options,
    });

    const { original, replayed, requestsServed, events } = await recordAndReplay(
      openai,
      'Compute (12 + 7) * 3 * 10 with the calculator.',
    );

    expect(requestsServed).toBe(5);
    expect(original).toMatchObject({ exit: 'task_completion', payload: { result: '570' }, iterations: 5 });
    expect(comparable(replayed)).toEqual(comparable(original));
    expect(events.replayed).toEqual(events.original);
    // The encrypted reasoning went back to the model in the recorded run and in the replay alike.
    const parts = replayed.messages.flatMap((message): MessagePart[] => message.content);
    const thinking = parts.find((part) => part.type === 'thinking');
    expect(thinking).toMatchObject({ signature: expect.stringMatching(/^gAAAAAB/) });
  });

  it('OpenAI Chat Completions: two real parallel tool calls, one real tool call, then task_completion', async () => {
    const recorded = (hash: string) => sseResponse(rawSseFrames(readFixture(`openai-python/${hash}.bin`)));
    server().reply(
      recorded('f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b'),
      recorded('c6aa7e397b7123c3501f25df3a05d4daf7e8ad6d61ffa406ab5361fe36a8d5b1'),
      sseResponse(
        chatAnswer({ toolCalls: [{ id: 'call_done', name: 'task_completion', arguments: { result: 'Done.' } }] }),
      ),
    );
    const openai = new OpenAIProvider({
      model: 'gpt-4o',
      compatible: false,
      ...testProviderOptions(`${server().url}/v1`).options,
    });

    const { original, replayed, events } = await recordAndReplay(openai, 'Weather in Edinburgh and the AAPL price?');

    expect(original).toMatchObject({ exit: 'task_completion', payload: { result: 'Done.' }, iterations: 3 });
    expect(comparable(replayed)).toEqual(comparable(original));
    expect(events.replayed).toEqual(events.original);
    expect(
      replayed.messages.flatMap((message) =>
        message.content.flatMap((part) => (part.type === 'tool-result' ? [part.content] : [])),
      ),
    ).toEqual(['14°C in Edinburgh', 'AAPL: 227.52 USD', '14°C in Edinburgh', 'Task completion delivered to the user.']);
  });
});

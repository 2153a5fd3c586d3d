import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { collectUntilError, modelRequest, sseResponse, useFixtureServer } from '../test-support/index.js';
import { createOpenAIClient, sendsReasoningByDefault } from './create-openai-client.js';
import { OpenAIProvider } from './openai-provider.js';
import { OpenAIResponsesProvider } from './openai-responses-provider.js';

// The SDKs bind console's methods the first time they log through it, so the spy is set before any
// client of this file is made, and stays until its end.
const printed: unknown[][] = [];
for (const level of ['error', 'warn', 'info', 'debug', 'log'] as const)
  vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args));
afterAll(() => vi.restoreAllMocks());

const server = useFixtureServer();

describe('sendsReasoningByDefault', () => {
  it.each([
    ['https://api.deepseek.com', true],
    ['https://api.deepseek.com/v1', true],
    ['https://api.moonshot.ai/v1', true],
    ['https://api.moonshot.cn/v1', true],
    ['http://localhost:11434/v1', true],
    ['http://127.0.0.1:8080/v1', true],
    ['http://[::1]:8000/v1', true],
    ['http://0.0.0.0:8000/v1', true],
    ['http://LOCALHOST:11434/v1', true],
    ['http://localhost.:11434/v1', true],
    ['https://API.DeepSeek.com./v1', true],
    ['http://ollama:11434/v1', true],
    ['http://host.docker.internal:11434/v1', true],
    ['http://gpu-box.lan:8000/v1', true],
    ['http://llm.local:8000/v1', true],
    ['http://192.168.1.20:8000/v1', true],
    ['http://10.0.0.5:8000/v1', true],
    ['http://172.20.0.2:8000/v1', true],
    ['http://[fd12:3456::1]:8000/v1', true],
    ['http://[fe80::1]:8000/v1', true],
    ['http://2130706433:8080/v1', true],
    ['http://127.evil.example/v1', false],
    ['http://172.32.0.1:8000/v1', false],
    ['http://8.8.8.8/v1', false],
    ['http://[2001:db8::1]/v1', false],
    ['https://api.groq.com/openai/v1', false],
    ['https://api.cerebras.ai/v1', false],
    ['https://openrouter.ai/api/v1', false],
    ['https://notdeepseek.com/v1', false],
    ['not a url', false],
  ])('%s → %s', (baseURL, expected) => {
    expect(sendsReasoningByDefault({ compatible: true, baseURL })).toBe(expected);
  });

  it('never sends reasoning to OpenAI, whatever the URL', () => {
    expect(sendsReasoningByDefault({ compatible: false, baseURL: 'http://localhost:8080/v1' })).toBe(false);
    expect(sendsReasoningByDefault({ compatible: false, baseURL: undefined })).toBe(false);
  });
});

describe('the SDK log of an OpenAI client', () => {
  const recordingLogger = () => {
    const calls: unknown[][] = [];
    const record =
      (level: string) =>
      (...args: unknown[]) =>
        void calls.push([level, ...args]);
    return {
      calls,
      logger: { error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') },
    };
  };
  const savedLevel = process.env.OPENAI_LOG;
  afterEach(() => {
    if (savedLevel === undefined) delete process.env.OPENAI_LOG;
    else process.env.OPENAI_LOG = savedLevel;
  });

  it("sends the SDK's warnings to clientOptions.logger, and never to console", () => {
    printed.length = 0;
    process.env.OPENAI_LOG = 'loud';
    createOpenAIClient({ model: 'm', apiKey: 'sk-test' });
    const { calls, logger } = recordingLogger();
    createOpenAIClient({ model: 'm', apiKey: 'sk-test', clientOptions: { logger } });
    expect(printed).toEqual([]);
    expect(calls).toEqual([
      ['warn', `process.env['OPENAI_LOG'] was set to "loud", expected one of ["off","error","warn","info","debug"]`],
    ]);
  });

  it.each([
    ['Chat Completions', OpenAIProvider],
    ['Responses', OpenAIResponsesProvider],
  ])('keeps a malformed %s event, escape sequences and all, off the console', async (_api, Provider) => {
    printed.length = 0;
    const malformed = 'data: {"oops \x1b]52;c;ZXZpbA==\x07\x9b2J\n\n';
    const stream = async (clientOptions: { logger?: ReturnType<typeof recordingLogger>['logger'] }) => {
      server().reply(sseResponse([malformed]));
      const provider = new Provider({
        model: 'gpt-5-mini',
        apiKey: 'sk-test',
        baseURL: `${server().url}/v1`,
        retry: { maxRetries: 0 },
        clientOptions,
      });
      return collectUntilError(provider.stream(modelRequest()));
    };
    expect((await stream({})).error).toBeDefined();
    const { calls, logger } = recordingLogger();
    await stream({ logger });
    expect(printed).toEqual([]);
    expect(calls[0]).toEqual(['error', 'Could not parse message into JSON:', '{"oops \x1b]52;c;ZXZpbA==\x07\x9b2J']);
  });
});

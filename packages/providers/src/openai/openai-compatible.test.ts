import { DefaultAgent } from '@agentloop/core';
import type { Message } from '@agentloop/spec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  calculatorTool,
  chunksOfType,
  collectChunks,
  collectUntilError,
  instantSleep,
  jsonResponse,
  modelRequest,
  readJsonFixture,
  sseResponse,
  textOf,
  thinkingOf,
  toolCallsOf,
  useFixtureServer,
  WEATHER_TOOL,
} from '../test-support/index.js';
import { OpenAIProvider } from './openai-provider.js';
import type { OpenAIProviderOptions } from './openai-provider-options.js';
import { openEndedSseResponse } from './test-support/open-ended-sse-response.js';

// OpenAI-compatible servers. The qwen-plus answer is a real recording; the streamed quirks below are
// hand-written in the formats Ollama, vLLM and llama.cpp send, since no recording of them is at hand.
const server = useFixtureServer();

const savedKey = process.env.OPENAI_API_KEY;
beforeEach(() => {
  delete process.env.OPENAI_API_KEY;
});
afterEach(() => {
  if (savedKey !== undefined) process.env.OPENAI_API_KEY = savedKey;
});

// Not testProviderOptions: with no API key and no `compatible`, these tests see what a local server gets by default.
function localProvider(options: Partial<OpenAIProviderOptions> = {}) {
  let ids = 0;
  return new OpenAIProvider({
    model: 'qwen2.5-coder:7b',
    baseURL: `${server().url}/v1`,
    sleep: instantSleep().sleep,
    generateId: () => `call_generated_${++ids}`,
    clientOptions: { logLevel: 'off' },
    ...options,
  });
}

const chat = (...chunks: unknown[]) =>
  sseResponse([...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`), 'data: [DONE]\n\n']);
const delta = (value: Record<string, unknown>, finishReason: string | null = null) => ({
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: value, finish_reason: finishReason }],
});
const toolCall = (id: string, name: string, input: Record<string, unknown>) =>
  delta({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: JSON.stringify(input) } }] });

describe('OpenAIProvider with an OpenAI-compatible server', () => {
  it('needs no API key, calls itself openai-compatible and uses max_tokens', async () => {
    server().reply(
      jsonResponse(200, readJsonFixture('vercel-ai/qwen-plus-normalized-replayed-tool-arguments-success.json')),
    );
    const provider = localProvider({ model: 'qwen-plus', streaming: false });
    const chunks = await collectChunks(
      provider.stream(modelRequest({ tools: [WEATHER_TOOL], settings: { maxTokens: 512 } })),
    );
    expect(provider.id).toBe('openai-compatible');
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'call_97a6503afcdb45769a1603', name: 'set_cell_range', arguments: { label: 'A1' } },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'tool_calls' });
    expect(server().requests[0]?.headers.authorization).toBe('Bearer not-needed');
    expect(server().requests[0]?.body).toMatchObject({ max_tokens: 512 });
    expect(server().requests[0]?.body).not.toHaveProperty('max_completion_tokens');
  });

  it('reads Ollama-style reasoning and a whole tool call answered with finish_reason stop', async () => {
    server().reply(
      chat(
        delta({ role: 'assistant', content: '', reasoning: 'The user wants' }),
        delta({ content: '', reasoning: ' the weather.' }),
        delta({
          content: '',
          tool_calls: [
            {
              id: 'call_tpx9',
              index: 0,
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Oslo"}' },
            },
          ],
        }),
        delta({ content: '' }, 'stop'),
        {
          object: 'chat.completion.chunk',
          choices: [],
          usage: { prompt_tokens: 180, completion_tokens: 25, total_tokens: 205 },
        },
      ),
    );
    const chunks = await collectChunks(localProvider().stream(modelRequest({ tools: [WEATHER_TOOL] })));
    expect(thinkingOf(chunks)).toBe('The user wants the weather.');
    expect(chunks.map((chunk) => chunk.type)).toEqual([
      'thinking-delta',
      'thinking-delta',
      'thinking-end',
      'tool-call-start',
      'tool-call',
      'usage',
      'finish',
    ]);
    expect(toolCallsOf(chunks)).toEqual([{ id: 'call_tpx9', name: 'get_weather', arguments: { location: 'Oslo' } }]);
    expect(chunks.at(-1)).toMatchObject({ reason: 'tool-calls' });
  });

  it('reads reasoning_content deltas as thinking before the answer', async () => {
    server().reply(
      chat(
        delta({ role: 'assistant', reasoning_content: 'Simple greeting.' }),
        delta({ reasoning_content: null, content: 'Hi there!' }),
        delta({}, 'stop'),
      ),
    );
    const chunks = await collectChunks(localProvider().stream(modelRequest()));
    expect(chunks.map((chunk) => chunk.type)).toEqual(['thinking-delta', 'thinking-end', 'text-delta', 'finish']);
    expect(textOf(chunks)).toBe('Hi there!');
  });

  it('invents ids for tool calls sent with id "0" or none, and takes arguments sent as an object', async () => {
    server().reply(
      chat(
        delta({ tool_calls: [{ id: '0', function: { name: 'get_weather', arguments: { location: 'Oslo' } } }] }),
        delta({ tool_calls: [{ function: { name: 'get_weather', arguments: { location: 'Bergen' } } }] }),
        delta({}, 'stop'),
      ),
    );
    const chunks = await collectChunks(localProvider().stream(modelRequest({ tools: [WEATHER_TOOL] })));
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'call_generated_1', name: 'get_weather', arguments: { location: 'Oslo' } },
      { id: 'call_generated_2', name: 'get_weather', arguments: { location: 'Bergen' } },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'stop' });
  });

  it('passes arguments sent as an object too deep to serialise on as text the loop refuses', async () => {
    // Built as text: JSON.stringify itself overflows the stack on such an object.
    const deepArguments = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const frame = `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"get_weather","arguments":${deepArguments}}}]},"finish_reason":null}]}`;
    server().reply(sseResponse([`data: ${frame}\n\n`, `data: ${JSON.stringify(delta({}, 'tool_calls'))}\n\n`]));
    const chunks = await collectChunks(localProvider().stream(modelRequest({ tools: [WEATHER_TOOL] })));
    const [call] = chunksOfType(chunks, 'tool-call');
    expect(call?.input.startsWith('{"a":{"a":')).toBe(true);
    expect(call?.input.match(/\{/g)).toHaveLength(257);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
  });

  describe('a stream that ends cleanly without a finish_reason, in the middle of a tool call', () => {
    const cutCommand = () =>
      chat(
        delta({
          tool_calls: [{ index: 0, id: 'call_1', function: { name: 'run_command', arguments: '{"command": "rm -rf' } }],
        }),
        delta({ tool_calls: [{ index: 0, function: { arguments: ' build && make' } }] }),
      );
    const wholeCommand = () =>
      chat(
        toolCall('call_1', 'run_command', { command: 'rm -rf build && make release VERSION=1.2.3' }),
        delta({}, 'tool_calls'),
      );

    it('is broken: the attempt is retried from the start and its output discarded', async () => {
      server().reply(cutCommand(), wholeCommand());
      const chunks = await collectChunks(localProvider().stream(modelRequest({ tools: [WEATHER_TOOL] })));
      expect(chunksOfType(chunks, 'retry')).toMatchObject([{ attempt: 1, discardOutput: true }]);
      expect(chunksOfType(chunks, 'retry')[0]?.error.code).toBe('stream_broken');
      expect(toolCallsOf(chunks)).toEqual([
        { id: 'call_1', name: 'run_command', arguments: { command: 'rm -rf build && make release VERSION=1.2.3' } },
      ]);
    });

    it('never runs the cut call in an agent, also when every retry is cut the same way', async () => {
      server().reply(cutCommand(), cutCommand());
      const commands: string[] = [];
      const agent = new DefaultAgent(localProvider({ retry: { maxRetries: 1 } }), {
        tools: [
          {
            name: 'run_command',
            description: 'Runs a shell command',
            parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
            execute: (args: { command: string }) => {
              commands.push(args.command);
              return 'ran';
            },
          },
        ],
      });
      const result = await agent.run('build the release');
      expect(commands).toEqual([]);
      expect(result.exit).toBe('error');
      expect(result.error?.code).toBe('stream_broken');
      // Nothing of the cut response reached history: the next run sends a valid conversation.
      expect(agent.memory.messages().map((message) => message.role)).toEqual(['user']);
    });
  });

  it('gives two calls with the same id distinct ids', async () => {
    server().reply(
      chat(
        delta({
          tool_calls: [{ index: 0, id: 'call_a', function: { name: 'get_weather', arguments: '{"location":"Oslo"}' } }],
        }),
        delta({
          tool_calls: [
            { index: 1, id: 'call_a', function: { name: 'get_weather', arguments: '{"location":"Bergen"}' } },
          ],
        }),
        delta({}, 'tool_calls'),
      ),
    );
    const chunks = await collectChunks(localProvider().stream(modelRequest({ tools: [WEATHER_TOOL] })));
    expect(toolCallsOf(chunks).map((call) => call.id)).toEqual(['call_a', 'call_generated_1']);
  });

  it('reports a model without tool support as tools_unsupported, so the agent can switch to XML', async () => {
    const ollama = {
      error: {
        message: 'registry.ollama.ai/library/gemma2:2b does not support tools',
        type: 'api_error',
        param: null,
        code: null,
      },
    };
    server().reply(jsonResponse(400, ollama));
    const { error } = await collectUntilError(
      localProvider({ model: 'gemma2:2b' }).stream(modelRequest({ tools: [WEATHER_TOOL] })),
    );
    expect(error).toMatchObject({
      code: 'tools_unsupported',
      statusCode: 400,
      retryable: false,
      provider: 'openai-compatible',
    });
    expect((error as Error).message).toContain('does not support tools');
    expect(server().requests).toHaveLength(1);
  });

  it('recognises what vLLM and llama.cpp say about tools', async () => {
    const vllm = {
      object: 'error',
      message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      type: 'BadRequestError',
      code: 400,
    };
    const llamaCpp = { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } };
    server().reply(jsonResponse(400, vllm), jsonResponse(500, llamaCpp));
    const first = await collectUntilError(localProvider().stream(modelRequest({ tools: [WEATHER_TOOL] })));
    const second = await collectUntilError(localProvider().stream(modelRequest({ tools: [WEATHER_TOOL] })));
    expect([first.error, second.error]).toMatchObject([{ code: 'tools_unsupported' }, { code: 'tools_unsupported' }]);
    expect(chunksOfType(second.chunks, 'retry')).toEqual([]);
  });

  it('names the server, the model of a 404, and how to give a key when it answers 401 to none', async () => {
    const url = `${server().url}/v1`;
    server().reply(
      jsonResponse(404, { error: { message: 'model "qwen2.5-coder:7b" not found, try pulling it first' } }),
    );
    const missing = await collectUntilError(localProvider().stream(modelRequest()));
    expect((missing.error as Error).message).toBe(
      `Error from the server at ${url} (404) for model "qwen2.5-coder:7b": model "qwen2.5-coder:7b" not found, try pulling it first`,
    );
    server().reply(
      jsonResponse(401, { error: { message: 'Unauthorized' } }),
      jsonResponse(401, { error: { message: 'Unauthorized' } }),
    );
    const keyless = await collectUntilError(localProvider().stream(modelRequest()));
    expect(keyless.error).toMatchObject({ code: 'authentication', retryable: false });
    expect((keyless.error as Error).message).toBe(
      `Error from the server at ${url} (401): Unauthorized (the server at ${url} wants an API key and none was sent: pass apiKey or set OPENAI_API_KEY)`,
    );
    const keyed = await collectUntilError(localProvider({ apiKey: 'wrong' }).stream(modelRequest()));
    expect((keyed.error as Error).message).toBe(`Error from the server at ${url} (401): Unauthorized`);
  });

  it('uses OPENAI_BASE_URL from the environment', async () => {
    process.env.OPENAI_BASE_URL = `${server().url}/v1`;
    try {
      server().reply(chat(delta({ content: 'ok' }, 'stop')));
      const provider = new OpenAIProvider({ model: 'llama3.1:8b', clientOptions: { logLevel: 'off' } });
      expect(textOf(await collectChunks(provider.stream(modelRequest())))).toBe('ok');
      expect(provider.id).toBe('openai-compatible');
    } finally {
      delete process.env.OPENAI_BASE_URL;
    }
  });

  it('sends the reasoning back as reasoning_content with the tool calls of the step before', async () => {
    // DeepSeek's thinking mode answers 400 to a tool-call message without its reasoning_content.
    server().reply(
      chat(
        delta({ role: 'assistant', reasoning_content: 'Add them' }),
        delta({ reasoning_content: ' with the calculator.' }),
        toolCall('call_1', 'calculator', { a: 12, b: 7, op: 'add' }),
        delta({}, 'tool_calls'),
      ),
      chat(
        delta({ role: 'assistant', reasoning_content: 'It is 19.' }),
        toolCall('call_2', 'task_completion', { result: '19' }),
        delta({}, 'tool_calls'),
      ),
    );
    const agent = new DefaultAgent(localProvider({ model: 'deepseek-chat' }), {
      systemPrompt: 'You compute with the calculator.',
      toolProtocol: 'native',
    });
    agent.registerTool(calculatorTool);
    const result = await agent.run('What is 12 + 7?');
    expect(result.exit).toBe('task_completion');
    const second = server().requests[1]?.body as { messages: unknown[] };
    expect(second.messages.slice(2)).toMatchInlineSnapshot(`
      [
        {
          "content": null,
          "reasoning_content": "Add them with the calculator.",
          "role": "assistant",
          "tool_calls": [
            {
              "function": {
                "arguments": "{"a":12,"b":7,"op":"add"}",
                "name": "calculator",
              },
              "id": "call_1",
              "type": "function",
            },
          ],
        },
        {
          "content": "19",
          "role": "tool",
          "tool_call_id": "call_1",
        },
      ]
    `);
  });

  it('sends reasoning_content only where it is wanted: not to OpenAI, not to a strict hosted server', async () => {
    server().reply(...[1, 2, 3, 4, 5, 6].map(() => chat(delta({ content: 'ok' }, 'stop'))));
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'What is 1 + 2?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'Add them' },
          { type: 'thinking', text: '', redactedData: 'opaque' },
          { type: 'thinking', text: ' with the calculator.' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'calculator', arguments: { a: 1, b: 2, op: 'add' } },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'calculator', content: '3', isError: false }],
      },
    ];
    const local = localProvider();
    const openai = localProvider({ model: 'gpt-4o', compatible: false, apiKey: 'test-key' });
    // Groq answers 400 to a field it does not know; its requests reach the fixture server through fetch.
    const groqURL = 'https://api.groq.com/openai/v1';
    const toFixtureServer: OpenAIProviderOptions['clientOptions'] = {
      logLevel: 'off',
      fetch: (url, init) => fetch(String(url).replace(groqURL, `${server().url}/v1`), init),
    };
    const groq = localProvider({ baseURL: groqURL, clientOptions: toFixtureServer });
    const groqOptedIn = localProvider({ baseURL: groqURL, sendReasoning: true, clientOptions: toFixtureServer });
    const localOptedOut = localProvider({ sendReasoning: false });
    // The kinds of server in turn, on the same message objects: none may get another's conversion.
    for (const provider of [local, openai, groq, local, groqOptedIn, localOptedOut]) {
      await collectChunks(provider.stream(modelRequest({ messages: history })));
    }
    const withoutReasoning = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'calculator', arguments: '{"a":1,"b":2,"op":"add"}' } },
      ],
    };
    const withReasoning = { ...withoutReasoning, reasoning_content: 'Add them with the calculator.' };
    const sent = server().requests.map((request) => (request.body as { messages: unknown[] }).messages[2]);
    expect(sent).toEqual([
      withReasoning,
      withoutReasoning,
      withoutReasoning,
      withReasoning,
      withReasoning,
      withoutReasoning,
    ]);
  });

  it("sends all stop sequences: the limit of four is OpenAI's", async () => {
    server().reply(chat(delta({ content: 'ok' }, 'stop')));
    const stopSequences = ['</tool>', '</tool_call>', 'END', 'STOP', 'HALT', 'DONE'];
    await collectChunks(localProvider().stream(modelRequest({ stopSequences })));
    expect(server().requests[0]?.body).toMatchObject({ stop: stopSequences });
  });

  it('ends the step at usage sent with the finish and cuts a connection the server keeps open', async () => {
    const answer = openEndedSseResponse([
      `data: ${JSON.stringify(delta({ content: 'Hi!' }))}\n\n`,
      `data: ${JSON.stringify({ ...delta({}, 'stop'), usage: { prompt_tokens: 9, completion_tokens: 2 } })}\n\n`,
      'data: [DONE]\n\n',
    ]);
    server().reply(answer.responder);
    const chunks = await collectChunks(localProvider({ idleTimeoutMs: 100 }).stream(modelRequest()));
    expect(textOf(chunks)).toBe('Hi!');
    expect(chunksOfType(chunks, 'usage')[0]?.usage).toMatchObject({ inputTokens: 9, outputTokens: 2 });
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop', rawReason: 'stop' });
    await answer.released;
  });
});

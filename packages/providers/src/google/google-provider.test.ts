import type { Message } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import {
  chunkLines,
  chunksOfType,
  collectChunks,
  jsonResponse,
  modelRequest,
  sseResponse,
  testProviderOptions,
  textOf,
  thinkingOf,
  toolCallsOf,
  useFixtureServer,
  WEATHER_TOOL,
} from '../test-support/index.js';
import { GoogleProvider, type GoogleProviderOptions } from './google-provider.js';

// Recorded Gemini traffic (see src/__fixtures__/README.md) served from a local server.
const server = useFixtureServer();

function provider(options: Partial<GoogleProviderOptions> = {}) {
  const { clientOptions: _sdkOptions, ...shared } = testProviderOptions(server().url).options;
  let count = 0;
  const generateId = () => `generated_${count++}`;
  return new GoogleProvider({ model: 'gemini-3-pro-preview', ...shared, generateId, ...options });
}

/** Gemini streams one bare `data:` line per response. */
const geminiFrames = (lines: readonly string[]) => lines.map((line) => `data: ${line}\n\n`);
const recorded = (path: string) => sseResponse(geminiFrames(chunkLines(path)));
const scripted = (...responses: unknown[]) => sseResponse(geminiFrames(responses.map((body) => JSON.stringify(body))));

const TEXT_SIGNATURE_START = 'EqsFCqgFAb4+9vvtAF5n87lB4OGDOoTRMOqp35jW';
const CALL_SIGNATURE_START = 'EqUCCqICAb4+9vsh8Pd5taZVoPzSvjWWwzBrvhEQ';

describe('GoogleProvider against recorded responses', () => {
  it('streams text with usage, keeps the signature that came on it and asks for the stream with the key', async () => {
    server().reply(recorded('vercel-ai/google-text.chunks.txt'));
    const chunks = await collectChunks(provider().stream(modelRequest()));
    expect(textOf(chunks)).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    const [end] = chunksOfType(chunks, 'thinking-end');
    expect(end?.signature?.startsWith(TEXT_SIGNATURE_START)).toBe(true);
    expect(end?.providerMetadata).toEqual({ google: { part: 'text' } });
    expect(chunksOfType(chunks, 'usage')).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: 9, outputTokens: 208, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 185 },
      },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop', rawReason: 'STOP' });
    const request = server().requests[0];
    expect(request?.path).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
    expect(request?.headers['x-goog-api-key']).toBe('test-key');
    expect(request?.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hello!' }] }],
      systemInstruction: { role: 'user', parts: [{ text: 'You are a helpful assistant.' }] },
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    });
  });

  it('reads a function call with its thought signature, finishing with tool-calls', async () => {
    server().reply(recorded('vercel-ai/google-tool-call.chunks.txt'));
    const chunks = await collectChunks(
      provider().stream(modelRequest({ tools: [WEATHER_TOOL], toolChoice: 'required' })),
    );
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'generated_0', name: 'weather', arguments: { location: 'San Francisco' } },
    ]);
    const [call] = chunksOfType(chunks, 'tool-call');
    const google = call?.providerMetadata?.google as { thoughtSignature: string };
    expect(google.thoughtSignature.startsWith(CALL_SIGNATURE_START)).toBe(true);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls', rawReason: 'STOP' });
    const body = server().requests[0]?.body as { tools: unknown; toolConfig: unknown };
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: WEATHER_TOOL.description,
            parametersJsonSchema: WEATHER_TOOL.inputSchema,
          },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
  });

  it("keeps the API's own call id, and the text before the call", async () => {
    server().reply(recorded('vercel-ai/issue-10781.1.chunks.txt'));
    const chunks = await collectChunks(provider().stream(modelRequest({ tools: [WEATHER_TOOL] })));
    expect(textOf(chunks)).toBe('Let me check.');
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'g1bmv6il', name: 'get_weather', arguments: { city: 'San Francisco' } },
    ]);
  });

  it('ends a blocked prompt with content-filter and its block reason', async () => {
    server().reply(recorded('vercel-ai/issue-19758-prompt-block.chunks.txt'));
    const chunks = await collectChunks(provider().stream(modelRequest()));
    expect(textOf(chunks)).toBe('');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'content-filter', rawReason: 'PROHIBITED_CONTENT' });
  });

  it('sends the conversation back with every signature on the part it came with', async () => {
    server().reply(recorded('vercel-ai/google-tool-call.chunks.txt'), recorded('vercel-ai/google-text.chunks.txt'));
    const first = await collectChunks(provider().stream(modelRequest({ tools: [WEATHER_TOOL] })));
    const [call] = chunksOfType(first, 'tool-call');
    const signature = (call?.providerMetadata?.google as { thoughtSignature?: string } | undefined)?.thoughtSignature;
    const messages: Message[] = [
      ...modelRequest().messages,
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'The user wants the weather.', providerMetadata: { google: { part: 'thought' } } },
          {
            type: 'tool-call',
            toolCallId: 'generated_0',
            toolName: 'weather',
            arguments: { location: 'San Francisco' },
            providerMetadata: call?.providerMetadata,
          },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'generated_0', toolName: 'weather', content: '18°C', isError: false },
        ],
      },
    ];
    await collectChunks(provider().stream(modelRequest({ messages, tools: [WEATHER_TOOL] })));
    expect((server().requests[1]?.body as { contents?: unknown } | undefined)?.contents).toEqual([
      { role: 'user', parts: [{ text: 'Hello!' }] },
      {
        role: 'model',
        parts: [
          { text: 'The user wants the weather.', thought: true },
          {
            functionCall: { id: 'generated_0', name: 'weather', args: { location: 'San Francisco' } },
            thoughtSignature: signature,
          },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'generated_0', name: 'weather', response: { output: '18°C' } } }],
      },
    ]);
  });
});

describe('GoogleProvider with scripted streams', () => {
  it('streams thought summaries as thinking, closed by their signature, then parallel calls', async () => {
    server().reply(
      scripted(
        { candidates: [{ content: { role: 'model', parts: [{ text: 'Two cities, ', thought: true }] } }] },
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ text: 'two calls.', thought: true, thoughtSignature: 'c2lnLTE=' }] },
            },
          ],
        },
        {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [
                  { functionCall: { name: 'get_weather', args: { location: 'Paris' } }, thoughtSignature: 'c2lnLTI=' },
                  { functionCall: { name: 'get_weather', args: { location: 'Tokyo' } } },
                ],
              },
              finishReason: 'STOP',
            },
          ],
          usageMetadata: {
            promptTokenCount: 40,
            candidatesTokenCount: 20,
            thoughtsTokenCount: 12,
            cachedContentTokenCount: 8,
          },
        },
      ),
    );
    const chunks = await collectChunks(provider().stream(modelRequest({ tools: [WEATHER_TOOL] })));
    expect(thinkingOf(chunks)).toBe('Two cities, two calls.');
    expect(chunksOfType(chunks, 'thinking-end')).toEqual([
      { type: 'thinking-end', signature: 'c2lnLTE=', providerMetadata: { google: { part: 'thought' } } },
    ]);
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'generated_0', name: 'get_weather', arguments: { location: 'Paris' } },
      { id: 'generated_1', name: 'get_weather', arguments: { location: 'Tokyo' } },
    ]);
    expect(chunksOfType(chunks, 'tool-call').map((call) => call.providerMetadata)).toEqual([
      { google: { thoughtSignature: 'c2lnLTI=' } },
      undefined,
    ]);
    expect(chunksOfType(chunks, 'usage')[0]?.usage).toEqual({
      inputTokens: 40,
      outputTokens: 32,
      cacheReadTokens: 8,
      cacheWriteTokens: 0,
      reasoningTokens: 12,
    });
  });

  it('maps MAX_TOKENS to length and a safety stop to content-filter', async () => {
    const stop = (finishReason: string) =>
      scripted({ candidates: [{ content: { role: 'model', parts: [{ text: 'Partial' }] }, finishReason }] });
    server().reply(stop('MAX_TOKENS'), stop('SAFETY'));
    expect((await collectChunks(provider().stream(modelRequest()))).at(-1)).toMatchObject({ reason: 'length' });
    expect((await collectChunks(provider().stream(modelRequest()))).at(-1)).toMatchObject({ reason: 'content-filter' });
  });

  it("sends its headers beside the API key, and never the environment's Vertex AI switch", async () => {
    const saved = process.env.GOOGLE_GENAI_USE_VERTEXAI;
    process.env.GOOGLE_GENAI_USE_VERTEXAI = 'true';
    try {
      server().reply(recorded('vercel-ai/google-text.chunks.txt'));
      await collectChunks(provider({ headers: { 'x-team': 'agents' } }).stream(modelRequest()));
    } finally {
      if (saved === undefined) delete process.env.GOOGLE_GENAI_USE_VERTEXAI;
      else process.env.GOOGLE_GENAI_USE_VERTEXAI = saved;
    }
    const request = server().requests[0];
    expect(request?.headers['x-team']).toBe('agents');
    expect(request?.headers['x-goog-api-key']).toBe('test-key');
    expect(request?.path).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
  });

  it('replays a non-streamed answer as chunks', async () => {
    server().reply(
      jsonResponse(200, {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hi there.' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 3 },
      }),
    );
    const chunks = await collectChunks(provider({ streaming: false }).stream(modelRequest()));
    expect(textOf(chunks)).toBe('Hi there.');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop', rawReason: 'STOP' });
    expect(server().requests[0]?.path).toBe('/v1beta/models/gemini-3-pro-preview:generateContent');
  });
});

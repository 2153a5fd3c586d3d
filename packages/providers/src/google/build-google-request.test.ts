import type { Message, ModelSettings } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { findModelInfo } from '../models/index.js';
import { modelRequest, WEATHER_TOOL } from '../test-support/index.js';
import { buildGoogleRequest } from './build-google-request.js';
import { SKIP_THOUGHT_SIGNATURE } from './to-google-contents.js';

const build = (model: string, overrides: Parameters<typeof modelRequest>[0] = {}) =>
  buildGoogleRequest(modelRequest(overrides), { model, modelInfo: findModelInfo(model) });
const thinking = (model: string, settings: ModelSettings) => build(model, { settings }).config.thinkingConfig;

describe('buildGoogleRequest', () => {
  it('asks Gemini 3 for a thinking level, Pro knowing only LOW and HIGH', () => {
    expect(thinking('gemini-3-pro-preview', { reasoningEffort: 'minimal' })).toEqual({
      includeThoughts: true,
      thinkingLevel: 'LOW',
    });
    expect(thinking('gemini-3-pro-preview', { reasoningEffort: 'medium' })?.thinkingLevel).toBe('HIGH');
    expect(thinking('gemini-3-flash-preview', { reasoningEffort: 'none' })?.thinkingLevel).toBe('MINIMAL');
    expect(thinking('gemini-3-flash-preview', { reasoningEffort: 'medium' })?.thinkingLevel).toBe('MEDIUM');
    expect(thinking('gemini-3-flash-preview', { thinkingBudgetTokens: 4_000 })).toEqual({
      includeThoughts: true,
      thinkingBudget: 4_000,
    });
  });

  it('gives Gemini 2.5 a budget within its range, and lets Flash stop thinking but not Pro', () => {
    expect(thinking('gemini-2.5-flash', { reasoningEffort: 'medium' })).toEqual({
      includeThoughts: true,
      thinkingBudget: 8_192,
    });
    expect(thinking('gemini-2.5-flash', { reasoningEffort: 'max' })?.thinkingBudget).toBe(24_576);
    expect(thinking('gemini-2.5-flash', { reasoningEffort: 'none' })).toEqual({ thinkingBudget: 0 });
    expect(thinking('gemini-2.5-pro', { reasoningEffort: 'none' })).toEqual({
      includeThoughts: true,
      thinkingBudget: 128,
    });
    expect(thinking('gemini-2.5-pro', {})).toEqual({ includeThoughts: true });
    expect(thinking('gemini-2.0-flash', { reasoningEffort: 'high' })).toBeUndefined();
  });

  it('sends sampling settings, at most five stop sequences, and tools without the $schema marker', () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', ...WEATHER_TOOL.inputSchema };
    const { config } = build('gemini-2.5-flash', {
      settings: { maxTokens: 1_000, temperature: 0.2, topP: 0.9 },
      stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'],
      tools: [{ ...WEATHER_TOOL, inputSchema: schema }],
      toolChoice: 'none',
    });
    expect(config).toMatchObject({ maxOutputTokens: 1_000, temperature: 0.2, topP: 0.9 });
    expect(config.stopSequences).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(config.tools).toEqual([
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
    expect(config.toolConfig).toEqual({ functionCallingConfig: { mode: 'NONE' } });
  });

  it("gives Gemini 3 Google's stand-in signature on a turn whose calls have none, and keeps 2.5 turns as they are", () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: [
          // Thinking of another provider: its signature means nothing to Gemini, so it is left out.
          { type: 'thinking', text: 'Claude thought.', signature: 'anthropic-signature' },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_weather', arguments: { location: 'Oslo' } },
          { type: 'tool-call', toolCallId: 'toolu_2', toolName: 'get_weather', arguments: { location: 'Rome' } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'toolu_1', toolName: 'get_weather', content: '5°C', isError: false },
          { type: 'tool-result', toolCallId: 'toolu_2', toolName: 'get_weather', content: 'timeout', isError: true },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
    ];
    const gemini3 = build('gemini-3-pro-preview', { messages }).contents;
    expect(gemini3[1]?.parts).toEqual([
      {
        functionCall: { id: 'toolu_1', name: 'get_weather', args: { location: 'Oslo' } },
        thoughtSignature: SKIP_THOUGHT_SIGNATURE,
      },
      { functionCall: { id: 'toolu_2', name: 'get_weather', args: { location: 'Rome' } } },
    ]);
    // The tool results and the user's next words are one user turn: roles must change between turns.
    expect(gemini3[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'toolu_1', name: 'get_weather', response: { output: '5°C' } } },
        { functionResponse: { id: 'toolu_2', name: 'get_weather', response: { error: 'timeout' } } },
        { text: 'And now?' },
      ],
    });
    expect(gemini3).toHaveLength(3);
    expect(build('gemini-2.5-flash', { messages }).contents[1]?.parts?.[0]).not.toHaveProperty('thoughtSignature');
  });

  it('puts a signature that came on the answer text back on that text', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hello.' },
          { type: 'thinking', text: '', signature: 'c2ln', providerMetadata: { google: { part: 'text' } } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Bye' }] },
    ];
    expect(build('gemini-3-flash-preview', { messages }).contents[1]).toEqual({
      role: 'model',
      parts: [{ text: 'Hello.', thoughtSignature: 'c2ln' }],
    });
  });
});

import type { AgentEvent } from '@agentloop/core';
import { AgentloopError, ProviderError } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { MemoryOutput } from '../test-support/index.js';
import { createRedactor } from '../verbose/index.js';
import { JsonLinesRenderer, serializeEvent, toJsonLine } from './json-lines.js';

describe('serializeEvent', () => {
  it('writes an agentloop error with its code and message', () => {
    const error = new ProviderError('Overloaded', { code: 'overloaded', provider: 'anthropic', statusCode: 529 });
    const event: AgentEvent = { type: 'retry', iteration: 1, attempt: 1, delayMs: 100, error, discardOutput: false };
    expect(JSON.parse(serializeEvent(event)).error).toEqual({
      name: 'ProviderError',
      code: 'overloaded',
      message: 'Overloaded',
      retryable: true,
      action: 'retry',
      statusCode: 529,
    });
  });

  it('redacts the user-info of URLs in any field', () => {
    const error = new ProviderError('could not reach http://user:password@host/v1/chat/completions', {
      code: 'network',
      provider: 'openai',
    });
    const event: AgentEvent = { type: 'retry', iteration: 1, attempt: 1, delayMs: 100, error, discardOutput: false };
    expect(JSON.parse(serializeEvent(event)).error.message).toBe('could not reach http://***@host/v1/chat/completions');
  });

  it('redacts each string on its own, so a URL and a later @ in another field leave the line valid', () => {
    const line = toJsonLine({ a: 'http://host', b: 'me@example.com', c: 'http://u:pw "x@host/v1' });
    expect(JSON.parse(line)).toEqual({ a: 'http://host', b: 'me@example.com', c: 'http://***@host/v1' });
  });

  it('redacts a secret with a quote in it, and a key under its own name', () => {
    const redact = createRedactor(['pass"word\\123']);
    const line = toJsonLine(
      { text: 'the key is pass"word\\123', api_key: 'abcdefgh12345', x: { Authorization: 'Basic dXNlcjpw' } },
      redact,
    );
    expect(JSON.parse(line)).toEqual({
      text: 'the key is [REDACTED]',
      api_key: '[REDACTED]',
      x: { Authorization: '[REDACTED]' },
    });
  });

  it('escapes the control characters JSON leaves raw, so the line is safe on a terminal', () => {
    const text = 'a\x9b2J\u202eb\x1b]0;t\x07';
    const line = serializeEvent({ type: 'message-content', iteration: 1, text });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not appear
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(line).text).toBe(text);
  });

  it('writes a plain error by name and message', () => {
    const event: AgentEvent = { type: 'listener-error', event: 'message-content', error: new TypeError('bad') };
    expect(JSON.parse(serializeEvent(event)).error).toEqual({ name: 'TypeError', message: 'bad' });
  });

  it('keeps the error of a result inside loop-end', () => {
    const error = new AgentloopError('Nope', { code: 'nope' });
    const result = {
      exit: 'error',
      payload: undefined,
      error,
      usage: { inputTokens: 1 },
      iterations: 1,
      messages: [],
      durationMs: 1,
    };
    const line = serializeEvent({ type: 'loop-end', runId: 'r', result } as unknown as AgentEvent);
    expect(JSON.parse(line).result.error).toMatchObject({ code: 'nope', message: 'Nope' });
  });
});

describe('JsonLinesRenderer', () => {
  it('writes one line per event', () => {
    const output = new MemoryOutput();
    const renderer = new JsonLinesRenderer(output);
    renderer.handle({ type: 'message-content', iteration: 1, text: 'a\nb' });
    renderer.handle({ type: 'message-end', iteration: 1, text: 'a\nb' });
    expect(output.text.split('\n')).toEqual([
      '{"type":"message-content","iteration":1,"text":"a\\nb"}',
      '{"type":"message-end","iteration":1,"text":"a\\nb"}',
      '',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { ChatStreamReader } from './chat-stream-reader.js';
import type { WireChatChunk } from './wire-chat-chunk.js';

const reader = () =>
  new ChatStreamReader({ provider: 'openai', generateId: () => 'call_x', requireFinishReason: true });
const usage = { prompt_tokens: 9, completion_tokens: 2 };
const text = (content: string): WireChatChunk => ({ choices: [{ index: 0, delta: { content } }] });
const finish = (reason: string): WireChatChunk => ({ choices: [{ index: 0, delta: {}, finish_reason: reason }] });

describe('ChatStreamReader.complete', () => {
  it('is complete once usage follows the finish_reason, as OpenAI sends them', () => {
    const chat = reader();
    chat.read(text('Hi'));
    chat.read(finish('stop'));
    expect(chat.complete).toBe(false);
    chat.read({ choices: [], usage });
    expect(chat.complete).toBe(true);
  });

  it('is complete at a finish chunk that carries the usage, as some compatible servers send it', () => {
    const chat = reader();
    chat.read({ ...finish('stop'), usage });
    expect(chat.complete).toBe(true);
  });

  it('is not complete at usage sent before the finish_reason (running usage on every chunk)', () => {
    const chat = reader();
    chat.read({ ...text('Hi'), usage });
    expect(chat.complete).toBe(false);
    chat.read(finish('stop'));
    expect(chat.complete).toBe(false);
  });
});

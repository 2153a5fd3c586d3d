import type { ModelChunk } from '@agentloop/spec';
import type { GenerateContentResponse, Part } from '@google/genai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GoogleStreamReader } from './google-stream-reader.js';

const SOURCE = { provider: 'google' };

/** Reads responses as a stream would, then finishes. */
function read(responses: readonly unknown[]): ModelChunk[] {
  let count = 0;
  const reader = new GoogleStreamReader(SOURCE, () => `id${++count}`);
  const chunks: ModelChunk[] = [];
  for (const response of responses) chunks.push(...reader.read(response as GenerateContentResponse));
  chunks.push(...reader.finish());
  return chunks;
}

/** Adjacent deltas of one kind joined: what a consumer shows does not depend on how they were split. */
function joined(chunks: readonly ModelChunk[]): ModelChunk[] {
  const out: ModelChunk[] = [];
  for (const chunk of chunks) {
    const last = out.at(-1);
    if ((chunk.type === 'text-delta' || chunk.type === 'thinking-delta') && last?.type === chunk.type) {
      out[out.length - 1] = { type: chunk.type, text: last.text + chunk.text };
    } else {
      out.push(chunk);
    }
  }
  return out;
}

const respond = (parts: Part[], finishReason?: string) => ({
  candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }],
});

/** Cuts a text into pieces at the given positions. */
function pieces(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const cut of [...at, text.length]) {
    if (cut > from) out.push(text.slice(from, cut));
    from = cut;
  }
  return out;
}

describe('GoogleStreamReader', () => {
  it('gives the same chunks however the thought and the answer are split across responses', () => {
    const thought = 'Weigh the options, then answer.';
    const answer = 'The answer is 42, as computed.';
    const whole = read([
      respond([{ text: thought, thought: true }]),
      respond([{ text: answer }]),
      respond([{ text: '', thoughtSignature: 'c2ln' }], 'STOP'),
    ]);
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (thoughtCuts, answerCuts) => {
          const responses = [
            ...pieces(thought, thoughtCuts).map((text) => respond([{ text, thought: true }])),
            ...pieces(answer, answerCuts).map((text) => respond([{ text }])),
            respond([{ text: '', thoughtSignature: 'c2ln' }], 'STOP'),
          ];
          expect(joined(read(responses))).toEqual(joined(whole));
        },
      ),
    );
    expect(joined(whole).map((chunk) => chunk.type)).toEqual([
      'thinking-delta',
      'thinking-end',
      'text-delta',
      'thinking-end',
      'usage',
      'finish',
    ]);
  });

  it('closes a thought without a signature when the answer begins, and at the end of a cut-off answer', () => {
    expect(read([respond([{ text: 'Hmm.', thought: true }], 'MAX_TOKENS')])).toEqual([
      { type: 'thinking-delta', text: 'Hmm.' },
      { type: 'thinking-end', providerMetadata: { google: { part: 'thought' } } },
      {
        type: 'usage',
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      },
      { type: 'finish', reason: 'length', rawReason: 'MAX_TOKENS' },
    ]);
  });

  it('says the answer is complete at its finish reason, and throws stream_broken for one that never came', () => {
    const reader = new GoogleStreamReader(SOURCE, () => 'id');
    reader.read(respond([{ text: 'Partial' }]) as GenerateContentResponse);
    expect(reader.complete).toBe(false);
    expect(() => reader.finish()).toThrow(expect.objectContaining({ code: 'stream_broken' }));
    reader.read(respond([], 'STOP') as GenerateContentResponse);
    expect(reader.complete).toBe(true);
  });

  it('sends a call with no arguments as an empty object, and a part it does not know as nothing', () => {
    const chunks = read([
      respond([{ executableCode: { code: 'print(1)' } }, { functionCall: { name: 'now' } }], 'STOP'),
    ]);
    expect(chunks.filter((chunk) => chunk.type === 'tool-call')).toEqual([
      { type: 'tool-call', toolCallId: 'id1', toolName: 'now', input: '{}' },
    ]);
  });
});

import type { ModelChunk } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from './scripted-provider.js';

const request = (signal = new AbortController().signal) => ({
  systemPrompt: 'sys',
  messages: [],
  tools: [],
  toolChoice: 'auto' as const,
  signal,
});

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('ScriptedProvider', () => {
  it('streams text in chunks of the chosen size, then usage and finish', async () => {
    const provider = new ScriptedProvider([{ text: 'abcdefg', usage: { inputTokens: 3, outputTokens: 2 } }], {
      chunkSize: 3,
    });
    expect(await collect(provider.stream(request()))).toEqual([
      { type: 'text-delta', text: 'abc' },
      { type: 'text-delta', text: 'def' },
      { type: 'text-delta', text: 'g' },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 2 } },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('streams thinking with its signature and tool calls with ids', async () => {
    const provider = new ScriptedProvider([
      { thinking: { text: 'hm', signature: 's' }, toolCalls: [{ name: 'echo', arguments: { a: 1 } }] },
    ]);
    const chunks = await collect(provider.stream(request()));
    expect(chunks.slice(0, 4)).toEqual([
      { type: 'thinking-delta', text: 'hm' },
      { type: 'thinking-end', signature: 's' },
      { type: 'tool-call-start', toolCallId: 'call_1_1', toolName: 'echo' },
      { type: 'tool-call', toolCallId: 'call_1_1', toolName: 'echo', input: '{"a":1}' },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
  });

  it('records each request without its signal', async () => {
    const provider = new ScriptedProvider([{ text: 'a' }]);
    await collect(provider.stream(request()));
    expect(provider.requests).toEqual([{ systemPrompt: 'sys', messages: [], tools: [], toolChoice: 'auto' }]);
  });

  it('fails loudly on a request with no step left', async () => {
    const provider = new ScriptedProvider([]);
    await expect(collect(provider.stream(request()))).rejects.toMatchObject({
      code: 'script_exhausted',
      message: expect.stringContaining('request #1 has no scripted step'),
    });
  });

  it('fails assertDone when steps are left over', () => {
    const provider = new ScriptedProvider([{ text: 'never asked' }]);
    expect(() => provider.assertDone()).toThrow('1 scripted step(s) were never requested');
  });

  it('answers with a step computed from the request', async () => {
    const provider = new ScriptedProvider([(req, index) => ({ text: `${req.systemPrompt}#${index}` })]);
    const chunks = await collect(provider.stream(request()));
    expect(chunks[0]).toEqual({ type: 'text-delta', text: 'sys#0' });
  });

  it('throws the scripted error after streaming the parts', async () => {
    const provider = new ScriptedProvider([{ text: 'part', error: new Error('boom') }]);
    const seen: ModelChunk[] = [];
    await expect(
      (async () => {
        for await (const chunk of provider.stream(request())) seen.push(chunk);
      })(),
    ).rejects.toThrow('boom');
    expect(seen).toEqual([{ type: 'text-delta', text: 'part' }]);
  });

  it('hangs until the request is aborted', async () => {
    const controller = new AbortController();
    const provider = new ScriptedProvider([{ text: 'x', hang: true }]);
    const pending = collect(provider.stream(request(controller.signal)));
    setTimeout(() => controller.abort(), 1);
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
  });
});

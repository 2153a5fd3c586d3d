import type { ModelChunk } from '@agentloop/spec';
import { userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from './scripted-provider.js';

const request = (signal = new AbortController().signal) => ({
  systemPrompt: 'sys',
  messages: [],
  tools: [],
  toolChoice: 'auto' as const,
  signal,
});

async function collect(stream: AsyncIterable<readonly ModelChunk[]>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const batch of stream) chunks.push(...batch);
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

  it('streams one chunk a batch by default, and batches of `batchSize` chunks when asked', async () => {
    const batchesOf = async (provider: ScriptedProvider) => {
      const sizes: number[] = [];
      for await (const batch of provider.stream(request())) sizes.push(batch.length);
      return sizes;
    };
    // 3 text chunks, usage, finish.
    expect(await batchesOf(new ScriptedProvider([{ text: 'abcdefg' }], { chunkSize: 3 }))).toEqual([1, 1, 1, 1, 1]);
    expect(await batchesOf(new ScriptedProvider([{ text: 'abcdefg' }], { chunkSize: 3, batchSize: 2 }))).toEqual([
      2, 2, 1,
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

  it('fails assertComplete (and its old name assertDone) when steps are left over', () => {
    const provider = new ScriptedProvider([{ text: 'never asked' }]);
    expect(() => provider.assertComplete()).toThrow(
      expect.objectContaining({
        code: 'script_leftover',
        message: expect.stringContaining('1 scripted step(s) were never requested'),
      }),
    );
    expect(() => provider.assertDone()).toThrow('1 scripted step(s) were never requested');
  });

  it('fails assertComplete with the first request that found no step, which an agent would report as an exit', async () => {
    const provider = new ScriptedProvider([{ text: 'one' }]);
    await collect(provider.stream(request()));
    await expect(collect(provider.stream(request()))).rejects.toMatchObject({ code: 'script_exhausted' });
    await expect(collect(provider.stream(request()))).rejects.toMatchObject({ code: 'script_exhausted' });
    expect(() => provider.assertComplete()).toThrow('request #2 has no scripted step');
  });

  it('passes assertComplete when every step was requested once', async () => {
    const provider = new ScriptedProvider([{ text: 'one' }]);
    await collect(provider.stream(request()));
    expect(provider.assertComplete()).toBeUndefined();
    expect(provider.remaining).toBe(0);
  });

  it('reads the n-th request back: request(n), toolNames(n) and lastMessage(n), negative from the end', async () => {
    const provider = new ScriptedProvider([{ text: 'a' }, { text: 'b' }]);
    const tool = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object' } };
    await collect(provider.stream({ ...request(), messages: [userMessage('first')] }));
    await collect(
      provider.stream({ ...request(), messages: [userMessage('first'), userMessage('second')], tools: [tool] }),
    );

    expect(provider.request(0).messages).toEqual([userMessage('first')]);
    expect(provider.request(-1)).toBe(provider.requests[1]);
    expect(provider.toolNames(0)).toEqual([]);
    expect(provider.toolNames()).toEqual(['echo']);
    expect(provider.lastMessage(0)).toEqual(userMessage('first'));
    expect(provider.lastMessage()).toEqual(userMessage('second'));
  });

  it('fails request(n) with how many requests there were when there is no n-th one', async () => {
    const provider = new ScriptedProvider([{ text: 'a' }]);
    await collect(provider.stream(request()));
    expect(() => provider.request(1)).toThrow(
      expect.objectContaining({
        code: 'script_no_request',
        message: expect.stringContaining('no request at index 1; 1 request(s) were made'),
      }),
    );
    expect(() => provider.lastMessage(0)).toThrow('the request at index 0 has no messages');
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
        for await (const batch of provider.stream(request())) seen.push(...batch);
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

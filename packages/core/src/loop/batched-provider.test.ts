import type { LLMProviderV1, ModelChunk, ModelRequest } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { DefaultAgent } from '../agent/default-agent.js';
import { batchedProvider } from './batched-provider.js';

// A third party's provider as the first version of the contract told it to be written: one chunk at a time.
class EchoProviderV1 implements LLMProviderV1 {
  readonly specificationVersion = 'v1';
  readonly id = 'echo';
  readonly capabilities = {
    modelId: 'echo',
    nativeTools: true,
    parallelToolCalls: false,
    stopSequences: false,
    reasoning: false,
    contextWindow: 8_000,
  };

  async *stream(request: ModelRequest): AsyncIterable<ModelChunk> {
    const last = request.messages.at(-1);
    const text = last?.role === 'user' ? last.content.map((part) => part.text).join('') : '';
    yield { type: 'text-delta', text: 'Echo: ' };
    yield { type: 'tool-call', toolCallId: 'call_1', toolName: 'converse', input: JSON.stringify({ message: text }) };
    yield { type: 'finish', reason: 'tool-calls' };
  }
}

const request = (): ModelRequest => ({
  systemPrompt: '',
  messages: [],
  tools: [],
  toolChoice: 'auto',
  signal: new AbortController().signal,
});

describe('batchedProvider', () => {
  it('wraps each chunk of a v1 provider in a batch of its own', async () => {
    const provider = batchedProvider(new EchoProviderV1());
    const batches: (readonly ModelChunk[])[] = [];
    for await (const batch of provider.stream(request())) batches.push(batch);
    expect(provider.specificationVersion).toBe('v2');
    expect(provider.id).toBe('echo');
    expect(batches.map((batch) => batch.map((chunk) => chunk.type))).toEqual([
      ['text-delta'],
      ['tool-call'],
      ['finish'],
    ]);
  });

  it('passes a v2 provider through as it is', () => {
    const provider = batchedProvider(batchedProvider(new EchoProviderV1()));
    expect(batchedProvider(provider)).toBe(provider);
  });

  it('lets an agent run a hand-written v1 provider', async () => {
    const agent = new DefaultAgent(new EchoProviderV1());
    const texts: string[] = [];
    agent.on('message-content', (event) => texts.push(event.text));
    const result = await agent.run('hello there');
    expect(result.exit).toBe('converse');
    expect(result.payload).toEqual({ message: 'hello there' });
    expect(texts).toEqual(['Echo: ']);
    expect(agent.provider.specificationVersion).toBe('v2');
  });

  it('tells the user of a provider of an unknown contract version what to do', () => {
    const future = { ...new EchoProviderV1(), specificationVersion: 'v9' } as unknown as LLMProviderV1;
    expect(() => new DefaultAgent(future)).toThrow(
      expect.objectContaining({
        code: 'unsupported_provider',
        message: expect.stringContaining(`implements provider contract "v9", but this agent speaks "v2" (and "v1")`),
      }),
    );
  });
});

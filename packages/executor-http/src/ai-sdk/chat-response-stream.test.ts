import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatResponseStream, KEEP_ALIVE_MS } from './chat-response-stream.js';
import { UiChunkMapper } from './ui-chunk-mapper.js';
import type { AgentloopDataTypes, AgentloopMessageMetadata } from './ui-message-chunk.js';

afterEach(() => {
  vi.useRealTimers();
});

async function bodyText(stream: ChatResponseStream): Promise<string> {
  return new Response(stream.body).text();
}

describe('ChatResponseStream', () => {
  it('says it is alive while nothing happens, and stops once the response ends', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stream = new ChatResponseStream(new UiChunkMapper());
    vi.advanceTimersByTime(KEEP_ALIVE_MS * 2);
    stream.fail('stopped');
    expect(vi.getTimerCount()).toBe(0);
    expect(await bodyText(stream)).toBe(
      ': keep-alive\n\n: keep-alive\n\n' +
        'data: {"type":"error","errorText":"stopped"}\n\n' +
        'data: {"type":"finish","finishReason":"error"}\n\n' +
        'data: [DONE]\n\n',
    );
  });

  it('hands a run’s failure to reportError and tells the client only that it failed', async () => {
    const reported: unknown[] = [];
    const stream = new ChatResponseStream(new UiChunkMapper(), { reportError: (error) => reported.push(error) });
    const failure = new Error('session file /home/ann/.agentloop/s1.jsonl is locked');
    stream.onEnd({ error: failure });
    expect(reported).toEqual([failure]);
    const text = await bodyText(stream);
    expect(text).toContain('"errorText":"The run failed inside the server; its log says why."');
    expect(text).not.toContain('/home/ann');
  });

  it('stops saying it is alive when it is abandoned before it streamed', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stream = new ChatResponseStream(new UiChunkMapper());
    stream.abandon();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tells a continued response how many events the run dropped, and where to read the conversation again', async () => {
    const stream = new ChatResponseStream(new UiChunkMapper(), { sessionId: 's1' });
    stream.write([{ type: 'start', messageMetadata: { runId: 'r1' } }]);
    stream.attached({ runId: 'r1', droppedEvents: 12, detach: () => {} });
    stream.fail('stopped');
    const chunks = (await bodyText(stream))
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice('data: '.length)) as UIMessageChunk);
    expect(chunks[1]).toEqual({
      type: 'data-agentloop-gap',
      data: {
        droppedEvents: 12,
        message:
          "12 of the run's events were dropped while no response was attached, so this message misses part of the run: reload the conversation from GET /api/chat/s1/messages.",
      },
    });
    // The SDK keeps it in the message as a typed data part the chat can act on.
    let last: UIMessage<AgentloopMessageMetadata, AgentloopDataTypes> | undefined;
    const read = new ReadableStream<UIMessageChunk>({
      start: (controller) => {
        for (const chunk of chunks.filter((chunk) => chunk.type !== 'error')) controller.enqueue(chunk);
        controller.close();
      },
    });
    for await (const message of readUIMessageStream<UIMessage<AgentloopMessageMetadata, AgentloopDataTypes>>({
      stream: read,
    })) {
      last = message;
    }
    const gap = last?.parts.find((part) => part.type === 'data-agentloop-gap');
    expect(gap?.type === 'data-agentloop-gap' && gap.data.droppedEvents).toBe(12);
  });

  it('says nothing of a gap when the run dropped no events', async () => {
    const stream = new ChatResponseStream(new UiChunkMapper(), { sessionId: 's1' });
    stream.attached({ runId: 'r1', droppedEvents: 0, detach: () => {} });
    stream.fail('stopped');
    expect(await bodyText(stream)).not.toContain('agentloop-gap');
  });
});

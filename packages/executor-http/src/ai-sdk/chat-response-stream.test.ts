import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatResponseStream, KEEP_ALIVE_MS } from './chat-response-stream.js';
import { UiChunkMapper } from './ui-chunk-mapper.js';

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
});

import type { ModelChunk } from '@agentloop/spec';
import { CancelledError, ProviderError } from '@agentloop/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sleep } from './sleep.js';
import { streamWithRetry } from './stream-with-retry.js';

type Step = ModelChunk | Error;

/** Attempts that replay scripted chunks, each a batch of its own, throwing where the script holds an error. */
function scripted(...attempts: Step[][]) {
  const started: number[] = [];
  const start = async function* (attempt: number): AsyncGenerator<readonly ModelChunk[]> {
    started.push(attempt);
    const script = attempts[attempt];
    if (!script) throw new Error(`no script for attempt ${attempt}`);
    for (const step of script) {
      if (step instanceof Error) throw step;
      yield [step];
    }
  };
  return { start, started };
}

function recordingSleep() {
  const waits: number[] = [];
  const sleep: Sleep = async (ms) => {
    waits.push(ms);
  };
  return { sleep, waits };
}

async function collect(stream: AsyncIterable<readonly ModelChunk[]>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const batch of stream) chunks.push(...batch);
  return chunks;
}

const text = (value: string): ModelChunk => ({ type: 'text-delta', text: value });
const finish: ModelChunk = { type: 'finish', reason: 'stop' };
const overloaded = () => new ProviderError('overloaded', { code: 'overloaded', provider: 'test', statusCode: 529 });
const signal = () => new AbortController().signal;

describe('streamWithRetry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes the chunks of a successful attempt through unchanged', async () => {
    const { start } = scripted([text('a'), text('b'), finish]);
    expect(await collect(streamWithRetry(start, { signal: signal() }))).toEqual([text('a'), text('b'), finish]);
  });

  it('hands each batch on whole, and announces a retry in a batch of its own', async () => {
    const start = async function* (attempt: number): AsyncGenerator<readonly ModelChunk[]> {
      yield [text(`${attempt}a`), text(`${attempt}b`)];
      if (attempt === 0) throw overloaded();
      yield [text('c'), finish];
    };
    const batches: (readonly ModelChunk[])[] = [];
    const { sleep } = recordingSleep();
    for await (const batch of streamWithRetry(start, { signal: signal(), sleep, random: () => 0 })) batches.push(batch);
    expect(
      batches.map((batch) => batch.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : chunk.type))),
    ).toEqual([['0a', '0b'], ['retry'], ['1a', '1b'], ['c', 'finish']]);
    expect(batches[1]?.[0]).toMatchObject({ type: 'retry', attempt: 1, discardOutput: true });
  });

  it('retries a retryable failure before any output without asking to discard', async () => {
    const { start, started } = scripted([overloaded()], [text('ok'), finish]);
    const { sleep, waits } = recordingSleep();
    const chunks = await collect(streamWithRetry(start, { signal: signal(), sleep, random: () => 0.5 }));
    expect(started).toEqual([0, 1]);
    expect(chunks[0]).toMatchObject({ type: 'retry', attempt: 1, delayMs: 250, discardOutput: false });
    expect(chunks.slice(1)).toEqual([text('ok'), finish]);
    expect(waits).toEqual([250]);
  });

  it('asks to discard the output of an attempt that failed after yielding', async () => {
    const broken = new ProviderError('cut', { code: 'stream_broken', provider: 'test' });
    const { start } = scripted([text('Hel'), broken], [text('Hello'), finish]);
    const { sleep } = recordingSleep();
    const chunks = await collect(streamWithRetry(start, { signal: signal(), sleep }));
    expect(chunks.map((chunk) => chunk.type)).toEqual(['text-delta', 'retry', 'text-delta', 'finish']);
    expect(chunks[1]).toMatchObject({ discardOutput: true, error: broken });
  });

  it('waits as long as the server asked', async () => {
    const limited = new ProviderError('429', { code: 'rate_limit', provider: 'test', retryAfterMs: 3_000 });
    const { start } = scripted([limited], [finish]);
    const { sleep, waits } = recordingSleep();
    const chunks = await collect(streamWithRetry(start, { signal: signal(), sleep }));
    expect(chunks[0]).toMatchObject({ type: 'retry', delayMs: 3_000 });
    expect(waits).toEqual([3_000]);
  });

  it('throws a non-retryable error at once', async () => {
    const invalid = new ProviderError('bad request', { code: 'invalid_request', provider: 'test', statusCode: 400 });
    const { start, started } = scripted([invalid]);
    await expect(collect(streamWithRetry(start, { signal: signal() }))).rejects.toBe(invalid);
    expect(started).toEqual([0]);
  });

  it('throws the last error when the budget is spent', async () => {
    const errors = [overloaded(), overloaded(), overloaded()];
    const { start, started } = scripted([errors[0]!], [errors[1]!], [errors[2]!]);
    const { sleep } = recordingSleep();
    const chunks: ModelChunk[] = [];
    const run = async () => {
      for await (const batch of streamWithRetry(start, { signal: signal(), sleep, policy: { maxRetries: 2 } }))
        chunks.push(...batch);
    };
    await expect(run()).rejects.toBe(errors[2]);
    expect(started).toEqual([0, 1, 2]);
    expect(chunks.map((chunk) => (chunk.type === 'retry' ? chunk.attempt : chunk.type))).toEqual([1, 2]);
  });

  it('wraps a non-agentloop error as a non-retryable unknown error', async () => {
    const { start } = scripted([new TypeError('boom')]);
    await expect(collect(streamWithRetry(start, { signal: signal() }))).rejects.toMatchObject({
      code: 'unknown',
      message: 'boom',
    });
  });

  it('does not retry once the signal has aborted, even for a retryable error', async () => {
    const controller = new AbortController();
    const start = async function* (): AsyncGenerator<readonly ModelChunk[]> {
      yield [text('a')];
      controller.abort();
      throw overloaded();
    };
    const error = await collect(streamWithRetry(start, { signal: controller.signal })).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(CancelledError);
  });

  it('does not start an attempt after an abort', async () => {
    const controller = new AbortController();
    controller.abort();
    const { start, started } = scripted([finish]);
    await expect(collect(streamWithRetry(start, { signal: controller.signal }))).rejects.toBeInstanceOf(CancelledError);
    expect(started).toEqual([]);
  });

  it('ends the wait between attempts as soon as the signal aborts', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const { start, started } = scripted([overloaded()], [finish]);
    const chunks: ModelChunk[] = [];
    const run = (async () => {
      for await (const batch of streamWithRetry(start, { signal: controller.signal, random: () => 0.99 }))
        chunks.push(...batch);
    })();
    const outcome = run.catch((thrown: unknown) => thrown);
    await vi.advanceTimersByTimeAsync(10);
    expect(chunks).toHaveLength(1);
    controller.abort();
    expect(await outcome).toBeInstanceOf(CancelledError);
    expect(started).toEqual([0]);
  });

  it('sleeps with real timers by default', async () => {
    vi.useFakeTimers();
    const { start, started } = scripted([overloaded()], [finish]);
    const run = collect(streamWithRetry(start, { signal: signal(), random: () => 0.5 }));
    await vi.advanceTimersByTimeAsync(249);
    expect(started).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await run).at(-1)).toEqual(finish);
    expect(started).toEqual([0, 1]);
  });
});

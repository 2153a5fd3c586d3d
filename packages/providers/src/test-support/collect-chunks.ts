import type { ModelChunk } from '@agentloop/spec';
import { vi } from 'vitest';

/** All chunks of a stream of batches, in order; throws what the stream threw. */
export async function collectChunks(stream: AsyncIterable<readonly ModelChunk[]>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const batch of stream) chunks.push(...batch);
  return chunks;
}

/** The batches of a stream, as they came; throws what the stream threw. */
export async function collectBatches(stream: AsyncIterable<readonly ModelChunk[]>): Promise<ModelChunk[][]> {
  const batches: ModelChunk[][] = [];
  for await (const batch of stream) batches.push([...batch]);
  return batches;
}

/** The chunks yielded before the stream failed, and the failure. */
export async function collectUntilError(
  stream: AsyncIterable<readonly ModelChunk[]>,
): Promise<{ chunks: ModelChunk[]; error: unknown }> {
  const chunks: ModelChunk[] = [];
  try {
    for await (const batch of stream) chunks.push(...batch);
  } catch (error) {
    return { chunks, error };
  }
  return { chunks, error: undefined };
}

/**
 * What a consumer that honours `discardOutput` keeps: the chunks of the last attempt, retries left out.
 * Comparing it with a clean run shows that nothing was emitted twice.
 */
export function keptChunks(chunks: readonly ModelChunk[]): ModelChunk[] {
  const kept: ModelChunk[] = [];
  for (const chunk of chunks) {
    if (chunk.type === 'retry') {
      if (chunk.discardOutput) kept.length = 0;
      continue;
    }
    kept.push(chunk);
  }
  return kept;
}

/** The concatenated text deltas. */
export function textOf(chunks: readonly ModelChunk[]): string {
  return chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : '')).join('');
}

/** The concatenated thinking deltas. */
export function thinkingOf(chunks: readonly ModelChunk[]): string {
  return chunks.map((chunk) => (chunk.type === 'thinking-delta' ? chunk.text : '')).join('');
}

/** The complete tool calls, arguments decoded. */
export function toolCallsOf(chunks: readonly ModelChunk[]): Array<{ id: string; name: string; arguments: unknown }> {
  return chunks.flatMap((chunk) =>
    chunk.type === 'tool-call'
      ? [{ id: chunk.toolCallId, name: chunk.toolName, arguments: JSON.parse(chunk.input) as unknown }]
      : [],
  );
}

/** The chunks of one type. */
export function chunksOfType<Type extends ModelChunk['type']>(
  chunks: readonly ModelChunk[],
  type: Type,
): Array<Extract<ModelChunk, { type: Type }>> {
  return chunks.filter((chunk): chunk is Extract<ModelChunk, { type: Type }> => chunk.type === type);
}

/**
 * All chunks of a stream whose first answer goes silent: reads until `beforeStall` (a chunk that answer
 * sends before its silence), then moves the faked clock on by `silenceMs`, so that the silence lasts that
 * long and no longer, however loaded the machine is. The test fakes `setTimeout`, `clearTimeout` and `Date`
 * (the idle timeout's clock), and leaves the sockets real.
 */
export async function collectThroughSilence(
  stream: AsyncIterable<readonly ModelChunk[]>,
  beforeStall: (chunk: ModelChunk) => boolean,
  silenceMs: number,
): Promise<ModelChunk[]> {
  const iterator = stream[Symbol.asyncIterator]();
  const chunks: ModelChunk[] = [];
  const readUntil = async (found: (chunk: ModelChunk) => boolean): Promise<void> => {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      chunks.push(...next.value);
      if (next.value.some(found)) return;
    }
  };
  await readUntil(beforeStall);
  const rest = readUntil(() => false);
  await vi.advanceTimersByTimeAsync(silenceMs);
  await rest;
  return chunks;
}

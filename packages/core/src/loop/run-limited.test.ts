import { describe, expect, it } from 'vitest';
import { runLimited } from './run-limited.js';

/** Work whose items finish when the test says so, with a log of starts and the most running at once. */
function controlledWork() {
  const finishers = new Map<string, () => void>();
  const started: string[] = [];
  let running = 0;
  let mostRunning = 0;
  const work = (item: string) =>
    new Promise<string>((resolve) => {
      started.push(item);
      running++;
      mostRunning = Math.max(mostRunning, running);
      finishers.set(item, () => {
        running--;
        resolve(`${item} done`);
      });
    });
  const finish = async (item: string) => {
    const finisher = finishers.get(item);
    if (!finisher) throw new Error(`${item} has not started`);
    finisher();
    // Let the scheduler see the result and start what may start.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { work, finish, started, mostRunning: () => mostRunning };
}

describe('runLimited', () => {
  it('runs at most `limit` items at once, starts them in order, and keeps the results in item order', async () => {
    const { work, finish, started, mostRunning } = controlledWork();
    const all = runLimited(['a', 'b', 'c', 'd', 'e'], work, { limit: 2 });
    expect(started).toEqual(['a', 'b']);
    await finish('b');
    expect(started).toEqual(['a', 'b', 'c']);
    await finish('c');
    await finish('a');
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    await finish('e');
    await finish('d');
    expect(await all).toEqual(['a done', 'b done', 'c done', 'd done', 'e done']);
    expect(mostRunning()).toBe(2);
  });

  it('never overlaps items with the same exclusive key, runs them in order, and lets others pass them', async () => {
    const { work, finish, started } = controlledWork();
    const key = (item: string) => (item.startsWith('seq') ? 'seq' : undefined);
    const all = runLimited(['seq1', 'seq2', 'other', 'seq3'], work, { limit: 4, exclusiveKey: key });
    expect(started).toEqual(['seq1', 'other']);
    await finish('other');
    expect(started).toEqual(['seq1', 'other']);
    await finish('seq1');
    expect(started).toEqual(['seq1', 'other', 'seq2']);
    await finish('seq2');
    await finish('seq3');
    expect(await all).toEqual(['seq1 done', 'seq2 done', 'other done', 'seq3 done']);
  });

  it('runs one by one, in order, with a limit of 1', async () => {
    const { work, finish, started, mostRunning } = controlledWork();
    const all = runLimited(['x', 'y', 'z'], work, { limit: 1 });
    for (const item of ['x', 'y', 'z']) {
      expect(started.at(-1)).toBe(item);
      await finish(item);
    }
    expect(await all).toEqual(['x done', 'y done', 'z done']);
    expect(mostRunning()).toBe(1);
  });

  it('starts everything at once without a limit', async () => {
    const { work, started } = controlledWork();
    void runLimited(['a', 'b', 'c'], work, { limit: Number.POSITIVE_INFINITY });
    expect(started).toEqual(['a', 'b', 'c']);
  });

  it('resolves at once with no items', async () => {
    expect(await runLimited([], async () => 'never', { limit: 1 })).toEqual([]);
  });

  it('rejects with the first failure and starts nothing after it', async () => {
    const started: string[] = [];
    const failing = runLimited(
      ['a', 'b', 'c'],
      async (item) => {
        started.push(item);
        if (item === 'a') throw new Error('a broke');
        return item;
      },
      { limit: 1 },
    );
    await expect(failing).rejects.toThrow('a broke');
    expect(started).toEqual(['a']);
  });
});

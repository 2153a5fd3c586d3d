import { describe, expect, it } from 'vitest';
import { DirectJournal } from './direct-journal.js';

describe('DirectJournal', () => {
  it('runs a step each time it is asked, and reads the given clock and ids', async () => {
    let runs = 0;
    const journal = new DirectJournal({ now: () => 42, createId: () => 'id-1' });
    expect(await journal.step('s', async () => ++runs)).toBe(1);
    expect(await journal.step('s', async () => ++runs)).toBe(2);
    expect(await journal.now()).toBe(42);
    expect(journal.randomId()).toBe('id-1');
  });

  it('resolves a wait with the answer given after the request was announced, and knows no other id', async () => {
    const journal = new DirectJournal();
    const announced: string[] = [];
    const waiting = journal.awaitAnswer<string>('request-1', () => {
      announced.push('request-1');
      // An answer given while the request is announced is not lost.
      expect(journal.answer('request-1', 'yes')).toBe(true);
    });
    expect(await waiting).toBe('yes');
    expect(announced).toEqual(['request-1']);
    expect(journal.answer('request-1', 'again')).toBe(false);
    expect(journal.answer('unknown', 'yes')).toBe(false);
  });

  it("rejects a wait with the signal's reason when it aborts, and forgets it", async () => {
    const journal = new DirectJournal();
    const controller = new AbortController();
    const waiting = journal.awaitAnswer('request-1', () => {}, { signal: controller.signal });
    controller.abort('cancelled');
    await expect(waiting).rejects.toBe('cancelled');
    expect(journal.answer('request-1', 'late')).toBe(false);
  });
});

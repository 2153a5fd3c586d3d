import { describe, expect, it } from 'vitest';
import { MemoryJournal } from './memory-journal.js';

describe('MemoryJournal answers', () => {
  it('records an answer once given, as JSON, and a journal made from the records replays it without asking', async () => {
    const journal = new MemoryJournal();
    const answer = { decision: 'allow', at: new Date(0) };
    const waiting = journal.awaitAnswer('approval-1', () => expect(journal.answer('approval-1', answer)).toBe(true));
    expect(await waiting).toBe(answer);
    expect(journal.records).toEqual([
      { kind: 'answer', name: 'approval-1', value: { decision: 'allow', at: '1970-01-01T00:00:00.000Z' } },
    ]);
    expect(journal.answer('approval-1', 'again')).toBe(false);

    const replay = new MemoryJournal({ records: journal.records });
    const announced: string[] = [];
    expect(await replay.awaitAnswer('approval-1', () => announced.push('approval-1'))).toEqual({
      decision: 'allow',
      at: '1970-01-01T00:00:00.000Z',
    });
    expect(announced).toEqual([]);
    expect(replay.replayed).toEqual(['approval-1']);
  });

  it('records nothing for a wait its signal ended, and refuses a late answer', async () => {
    const journal = new MemoryJournal();
    const controller = new AbortController();
    const waiting = journal.awaitAnswer('approval-1', () => {}, { signal: controller.signal });
    controller.abort('cancelled');
    await expect(waiting).rejects.toBe('cancelled');
    expect(journal.answer('approval-1', 'late')).toBe(false);
    expect(journal.records).toEqual([]);
  });
});

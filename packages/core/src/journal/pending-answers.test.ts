import { describe, expect, it } from 'vitest';
import { PendingAnswers } from './pending-answers.js';

describe('PendingAnswers', () => {
  it('resolves a wait with the answer given while the request is announced, then forgets it', async () => {
    const pending = new PendingAnswers();
    const delivered: boolean[] = [];
    const waiting = pending.wait<string>('request-1', () => delivered.push(pending.answer('request-1', 'yes')));
    expect(await waiting).toBe('yes');
    expect(delivered).toEqual([true]);
    expect(pending.answer('request-1', 'again')).toBe(false);
    expect(pending.answer('unknown', 'yes')).toBe(false);
  });

  it('shows the answer to onAnswer before the wait resolves with it', async () => {
    const pending = new PendingAnswers();
    const seen: unknown[] = [];
    const waiting = pending.wait('request-1', () => {}, { onAnswer: (value) => seen.push(value) });
    expect(seen).toEqual([]);
    pending.answer('request-1', { decision: 'allow' });
    expect(seen).toEqual([{ decision: 'allow' }]);
    expect(await waiting).toEqual({ decision: 'allow' });
  });

  it("rejects with the signal's reason when it aborts, without onAnswer, and refuses a late answer", async () => {
    const pending = new PendingAnswers();
    const controller = new AbortController();
    const seen: unknown[] = [];
    const waiting = pending.wait('request-1', () => {}, {
      signal: controller.signal,
      onAnswer: (value) => seen.push(value),
    });
    controller.abort('cancelled');
    await expect(waiting).rejects.toBe('cancelled');
    expect(pending.answer('request-1', 'late')).toBe(false);
    expect(seen).toEqual([]);
  });

  it('announces the request even when the signal has already aborted, then rejects', async () => {
    const pending = new PendingAnswers();
    const announced: string[] = [];
    const waiting = pending.wait('request-1', () => announced.push('request-1'), {
      signal: AbortSignal.abort('already'),
    });
    await expect(waiting).rejects.toBe('already');
    expect(announced).toEqual(['request-1']);
    expect(pending.answer('request-1', 'late')).toBe(false);
  });

  it('keeps waits under different ids apart', async () => {
    const pending = new PendingAnswers();
    const first = pending.wait('request-1', () => {});
    const second = pending.wait('request-2', () => {});
    pending.answer('request-2', 'two');
    pending.answer('request-1', 'one');
    expect(await Promise.all([first, second])).toEqual(['one', 'two']);
  });
});

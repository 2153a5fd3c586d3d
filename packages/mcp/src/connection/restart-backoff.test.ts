import { describe, expect, it } from 'vitest';
import { restartDelayMs } from './restart-backoff.js';

describe('restartDelayMs', () => {
  it('doubles from 1 s up to 60 s', () => {
    expect([0, 1, 2, 3, 6, 7, 50].map((failures) => restartDelayMs(failures))).toEqual([
      0, 1_000, 2_000, 4_000, 32_000, 60_000, 60_000,
    ]);
  });

  it('takes its own first and longest wait', () => {
    expect(restartDelayMs(3, { initialMs: 10, maxMs: 25 })).toBe(25);
    expect(restartDelayMs(2, { initialMs: 10, maxMs: 25 })).toBe(20);
  });
});

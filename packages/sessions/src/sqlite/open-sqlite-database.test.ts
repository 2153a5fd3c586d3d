import { describe, expect, it } from 'vitest';
import { switchToWal } from './open-sqlite-database.js';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** A database whose WAL switch fails with `failures` errors before it succeeds; a clock that moves 5 ms a read. */
function flakyDatabase(failures: Error[]) {
  const calls: string[] = [];
  let time = 0;
  const db = {
    pragma(source: string) {
      calls.push(source);
      const failure = failures.shift();
      if (failure) throw failure;
      return [];
    },
  };
  return { db, calls, now: () => (time += 5) };
}

describe('switchToWal', () => {
  it('tries again while another process holds the new file, and switches once it is free', () => {
    const { db, calls, now } = flakyDatabase([busy(), busy()]);
    switchToWal(db, 1_000, now);
    expect(calls).toEqual(['journal_mode = WAL', 'journal_mode = WAL', 'journal_mode = WAL']);
  });

  it('gives up with the busy error once the busy timeout has passed', () => {
    const { db, calls, now } = flakyDatabase(Array.from({ length: 100 }, busy));
    expect(() => switchToWal(db, 20, now)).toThrow('database is locked');
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.length).toBeLessThan(10);
  });

  it('does not retry an error that is not SQLITE_BUSY', () => {
    const { db, calls, now } = flakyDatabase([Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' })]);
    expect(() => switchToWal(db, 1_000, now)).toThrow('disk I/O error');
    expect(calls).toHaveLength(1);
  });
});

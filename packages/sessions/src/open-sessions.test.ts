import { describe, expect, it } from 'vitest';
import { OpenSessions } from './open-sessions.js';

describe('OpenSessions', () => {
  it('gives an open session for an operation, and says which call is missing for one that is not open', () => {
    const sessions = new OpenSessions<{ name: string }>();
    sessions.add('s1', { name: 'first' });
    expect(sessions.opened('s1', 'append to')).toEqual({ name: 'first' });
    expect(() => sessions.opened('s2', 'append to')).toThrow(
      expect.objectContaining({
        code: 'session_not_open',
        message: 'Cannot append to session s2: this store has not opened it. Call store.open("s2") first.',
      }),
    );
  });

  it('takes a session out for its release, once', () => {
    const sessions = new OpenSessions<string>();
    sessions.add('s1', 'handle');
    expect(sessions.take('s1')).toBe('handle');
    expect(sessions.take('s1')).toBeUndefined();
    expect(sessions.has('s1')).toBe(false);
  });

  it('releases every open session at close, also after one fails, then throws the first failure', async () => {
    const sessions = new OpenSessions<string>();
    for (const id of ['a', 'b', 'c']) sessions.add(id, id);
    const released: string[] = [];
    const failure = new Error('disk gone');
    const closing = sessions.close(async (id) => {
      released.push(id);
      sessions.take(id);
      if (id === 'a') throw failure;
    });
    await expect(closing).rejects.toBe(failure);
    expect(released).toEqual(['a', 'b', 'c']);
    expect(sessions.closed).toBe(true);
    expect(() => sessions.assertNotClosed()).toThrow(expect.objectContaining({ code: 'session_store_closed' }));
    // A second close has nothing to do.
    await expect(
      sessions.close(async () => {
        released.push('again');
      }),
    ).resolves.toBeUndefined();
    expect(released).toHaveLength(3);
  });
});

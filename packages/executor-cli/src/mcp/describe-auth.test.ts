import { describe, expect, it } from 'vitest';
import { describeAuth } from './describe-auth.js';

describe('describeAuth', () => {
  const now = 1_000_000_000;
  it('says how long a token has left, in minutes or hours', () => {
    expect(describeAuth({ state: 'logged-in', expiresAt: now + 52 * 60_000 }, now)).toBe(
      'oauth: logged in, expires in 52 min',
    );
    expect(describeAuth({ state: 'logged-in', expiresAt: now + 5 * 3_600_000 }, now)).toBe(
      'oauth: logged in, expires in 5 h',
    );
    expect(describeAuth({ state: 'logged-in', expiresAt: now - 1 }, now)).toBe(
      'oauth: logged in, token expired (refreshed at the next request)',
    );
    expect(describeAuth({ state: 'logged-in' }, now)).toBe('oauth: logged in');
    expect(describeAuth({ state: 'login-needed' }, now)).toBe('oauth: login needed');
  });

  it('says when a refreshed token could not be saved, and that it lasts only this process', () => {
    expect(
      describeAuth(
        { state: 'logged-in', expiresAt: now + 52 * 60_000, tokenStoreError: 'EACCES: permission denied' },
        now,
      ),
    ).toBe(
      'oauth: logged in, expires in 52 min; the refreshed token could not be saved (EACCES: permission denied): it lasts until agentloop ends',
    );
  });
});
